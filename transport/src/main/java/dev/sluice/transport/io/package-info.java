/**
 * The event loops serve's data path runs on: one group of Netty loops shared by the frontend's connections and the
 * remote engines' connections.
 */
package dev.sluice.transport.io;
