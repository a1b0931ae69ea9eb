package dev.sluice.transport.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The percentile plot in both formats: the PNG is a real image with the trials' lines, the SVG keeps its shape. */
class PercentilePlotTest {
    private static final List<PercentilePlot.Line> TRIALS = List.of(trial("sluice", 1_000), trial("baseline", 3_000));
    private static final String TITLE = "Decision latency by percentile (µs, log)";

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static PercentilePlot.Line trial(String target, long medianNs) {
        Histogram ns = new Histogram(3_600_000_000_000L, 3);
        for (int i = 1; i <= 10_000; i++) {
            ns.recordValue(medianNs * i / 5_000);
        }
        return new PercentilePlot.Line(target + " 50,000/s", ns, 0, target.equals("baseline"));
    }

    @Test
    void shouldWriteAPngWithTheTrialLinesOnWhite(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latency.png");
        PngPlot.write(PercentilePlot.chart(TITLE, TRIALS), file);
        BufferedImage image = ImageIO.read(file.toFile());
        assertEquals(PercentilePlot.WIDTH, image.getWidth());
        assertEquals(PercentilePlot.HEIGHT, image.getHeight());
        assertEquals(0xFFFFFF, image.getRGB(1, PercentilePlot.HEIGHT - 1) & 0xFFFFFF, "white background");
        int blue = 0;
        int dark = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xFF;
                int g = (rgb >> 8) & 0xFF;
                int b = rgb & 0xFF;
                blue += b > r + 80 && b > g + 20 ? 1 : 0;
                dark += r < 80 && g < 80 && b < 80 ? 1 : 0;
            }
        }
        assertTrue(blue > 500, "the first pair's lines are drawn in its colour: " + blue + " pixels");
        assertTrue(dark > 200, "the title and axis labels are drawn: " + dark + " pixels");
    }

    @Test
    void shouldKeepOneSvgPolylinePerTrialWithTheBaselineDashed() {
        String svg = SvgPlot.render(PercentilePlot.chart(TITLE, TRIALS));
        assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"480\""), svg);
        assertEquals(2, svg.split("<polyline", -1).length - 1);
        assertEquals(2, svg.split("stroke-dasharray", -1).length - 1, "the baseline line and its legend entry");
        assertTrue(svg.contains(">baseline 50,000/s</text>") && svg.endsWith("</svg>\n"), svg);
    }
}
