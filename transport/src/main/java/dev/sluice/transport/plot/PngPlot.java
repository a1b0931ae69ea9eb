package dev.sluice.transport.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * A {@link Chart} as a PNG, drawn with the JDK's Java2D on a {@link BufferedImage} and written with {@link ImageIO}:
 * no plotting library, no display (the JVM must run headless, {@code -Djava.awt.headless=true}). One instance draws
 * one image.
 */
public final class PngPlot implements PlotCanvas {
    private static final float[] DASH = {5, 3};

    private final Graphics2D g;

    private PngPlot(Graphics2D graphics) {
        this.g = graphics;
    }

    /** Draws {@code chart} into {@code file}, white behind it. */
    public static void write(Chart chart, Path file) throws IOException {
        BufferedImage image = new BufferedImage(chart.width(), chart.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        try {
            graphics.setColor(Color.WHITE);
            graphics.fillRect(0, 0, chart.width(), chart.height());
            graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            graphics.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            chart.draw(new PngPlot(graphics));
        } finally {
            graphics.dispose();
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("this JDK has no PNG writer");
        }
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed) {
        stroke(colour, width, dashed);
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int n, String colour, double width, boolean dashed) {
        Path2D.Double path = new Path2D.Double();
        for (int i = 0; i < n; i++) {
            if (i == 0) {
                path.moveTo(xs[i], ys[i]);
            } else {
                path.lineTo(xs[i], ys[i]);
            }
        }
        stroke(colour, width, dashed);
        g.draw(path);
    }

    @Override
    public void rect(double x, double y, double width, double height, String fill, double opacity) {
        Color c = Color.decode(fill);
        g.setColor(new Color(c.getRed(), c.getGreen(), c.getBlue(), (int) Math.round(255 * opacity)));
        g.fill(new Rectangle2D.Double(x, y, width, height));
    }

    @Override
    public void text(double x, double y, String text, TextStyle style) {
        g.setColor(Color.decode(style.colour()));
        g.setFont(new Font(Font.SANS_SERIF, style.bold() ? Font.BOLD : Font.PLAIN, style.size()));
        double shift = switch (style.anchor()) {
            case START -> 0;
            case MIDDLE -> g.getFontMetrics().stringWidth(text) / 2.0;
            case END -> g.getFontMetrics().stringWidth(text);
        };
        AffineTransform saved = g.getTransform();
        if (style.vertical()) {
            g.rotate(-Math.PI / 2, x, y);
        }
        g.drawString(text, (float) (x - shift), (float) y);
        g.setTransform(saved);
    }

    private void stroke(String colour, double width, boolean dashed) {
        g.setColor(Color.decode(colour));
        g.setStroke(dashed ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, DASH, 0)
            : new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
    }
}
