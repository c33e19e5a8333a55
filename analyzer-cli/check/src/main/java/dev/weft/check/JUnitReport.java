package dev.weft.check;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes check verdicts as a JUnit XML report (one test case per property: a failure with the
 * reason for each failed one, skipped for each one not checked), the format CI servers (Jenkins,
 * GitLab, GitHub Actions test reporters) display.
 */
public final class JUnitReport {
  private JUnitReport() {}

  /**
   * Writes the report.
   *
   * @param current names what was checked, e.g. the analysis files
   * @param baseline names the baseline, or "" for none
   */
  public static void write(Path file, String current, String baseline, List<Verdict> verdicts)
      throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    long failures = verdicts.stream().filter(Verdict::failed).count();
    long skipped =
        verdicts.stream().filter(v -> v.outcome() == Verdict.Outcome.NOT_CHECKED).count();
    try (OutputStream out = Files.newOutputStream(file)) {
      XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
      x.writeStartDocument("UTF-8", "1.0");
      x.writeCharacters("\n");
      x.writeStartElement("testsuites");
      x.writeAttribute("name", "weft check");
      x.writeAttribute("tests", Integer.toString(verdicts.size()));
      x.writeAttribute("failures", Long.toString(failures));
      x.writeAttribute("errors", "0");
      x.writeCharacters("\n  ");
      x.writeStartElement("testsuite");
      x.writeAttribute("name", "weft check");
      x.writeAttribute("tests", Integer.toString(verdicts.size()));
      x.writeAttribute("failures", Long.toString(failures));
      x.writeAttribute("errors", "0");
      x.writeAttribute("skipped", Long.toString(skipped));
      x.writeAttribute("time", "0");
      x.writeCharacters("\n    ");
      x.writeStartElement("properties");
      property(x, "current", current);
      property(x, "baseline", baseline);
      x.writeCharacters("\n    ");
      x.writeEndElement();
      for (Verdict v : verdicts) {
        x.writeCharacters("\n    ");
        x.writeStartElement("testcase");
        x.writeAttribute("classname", "weft.check");
        x.writeAttribute("name", v.id());
        x.writeAttribute("time", "0");
        if (v.failed()) {
          x.writeCharacters("\n      ");
          x.writeStartElement("failure");
          x.writeAttribute("message", v.reason());
          x.writeAttribute("type", v.kind());
          x.writeCharacters(v.message() + " (" + v.name() + ")");
          x.writeEndElement();
          x.writeCharacters("\n    ");
        } else if (v.outcome() == Verdict.Outcome.NOT_CHECKED) {
          x.writeEmptyElement("skipped");
          x.writeAttribute("message", v.reason());
        } else {
          x.writeStartElement("system-out");
          x.writeCharacters(v.reason());
          x.writeEndElement();
        }
        x.writeEndElement();
      }
      x.writeCharacters("\n  ");
      x.writeEndElement();
      x.writeCharacters("\n");
      x.writeEndElement();
      x.writeCharacters("\n");
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IOException(file + ": cannot write XML: " + e.getMessage(), e);
    }
  }

  private static void property(XMLStreamWriter x, String name, String value)
      throws XMLStreamException {
    x.writeCharacters("\n      ");
    x.writeEmptyElement("property");
    x.writeAttribute("name", name);
    x.writeAttribute("value", value);
  }
}
