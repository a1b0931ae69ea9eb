package dev.sluice.perf.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * The {@link PercentilePlot} as a PNG, drawn with the JDK's Java2D on a {@link BufferedImage} and written with
 * {@link ImageIO}: no plotting library, no display (the JVM must run headless, {@code -Djava.awt.headless=true}; the
 * harness sets it). One instance draws one image.
 */
final class PngPlot implements PlotCanvas {
    private static final float[] DASH = {5, 3};

    private final Graphics2D g;

    private PngPlot(Graphics2D graphics) {
        this.g = graphics;
    }

    /** Draws the plot of {@code results} into {@code file}. */
    static void write(List<TrialResult> results, Path file) throws IOException {
        BufferedImage image = new BufferedImage(PercentilePlot.WIDTH, PercentilePlot.HEIGHT,
            BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        try {
            graphics.setColor(Color.WHITE);
            graphics.fillRect(0, 0, PercentilePlot.WIDTH, PercentilePlot.HEIGHT);
            graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            graphics.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            PercentilePlot.draw(results, new PngPlot(graphics));
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
    public void text(double x, double y, String text, int size) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, size));
        g.drawString(text, (float) x, (float) y);
    }

    private void stroke(String colour, double width, boolean dashed) {
        g.setColor(Color.decode(colour));
        g.setStroke(dashed ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, DASH, 0)
            : new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
    }
}
