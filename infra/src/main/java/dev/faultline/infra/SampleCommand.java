package dev.faultline.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.cli.CliCommand;
import dev.faultline.estimate.sample.ValidationSamples;
import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code faultline sample draw} and {@code faultline sample import}: a validation sample of a
 * scope, drawn uniformly at random from the graph, labelled by a person, recorded back, so that the
 * scope's estimates ({@code category-shares}) are corrected by the classifier's measured error.
 */
@Command(
    name = "sample",
    description = {
      "Draw a uniformly random validation sample of a scope, and import its labels.",
      "",
      "draw writes the sample as JSON lines with the codebook fields empty; fill them in (codes of",
      "../shared/taxonomy/CODEBOOK.md) and import the file: the estimates of that scope (and of any",
      "part of it) then use prediction-powered inference and say so."
    },
    subcommands = {
      SampleCommand.Draw.class,
      SampleCommand.Import.class,
      SampleCommand.Status.class
    },
    footer = {"", GraphConfig.ENVIRONMENT_HELP})
final class SampleCommand extends CliCommand {
  static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Integer call() {
    throw usageError("name a subcommand: draw, import or status");
  }

  /**
   * The lines saying which dimensions were labelled for fewer issues than were drawn: their
   * estimates use the sample with bounds for the unlabelled ones (docs/estimates.md).
   */
  static String partial(Map<String, Integer> perDimension, int drawn) {
    StringBuilder b = new StringBuilder();
    for (Dimension d : fields()) {
      int n = perDimension.getOrDefault(d.key(), 0);
      if (n < drawn) {
        b.append(
            String.format(
                "  %s: %d of %d drawn labelled: partial, its estimates bound the %d unlabelled%n",
                d.field(), n, drawn, drawn - n));
      }
    }
    return b.toString();
  }

  /** The dimensions a person fills in: every labelled dimension (the symptom class follows). */
  static List<Dimension> fields() {
    return Dimension.LABELLED;
  }

  private final Map<String, String> env;

  SampleCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** The graph the environment names. */
  GraphConfig graph() {
    return GraphConfig.fromEnvironment(env);
  }

  @Command(
      name = "draw",
      description = {
        "Draw N issues uniformly at random from a scope and write them for labelling.",
        "",
        "Every issue of the scope (any kind; not deleted or transferred) has the same chance. The",
        "same graph, scope, N and seed draw the same issues; the sample is recorded in the graph."
      })
  static final class Draw extends CliCommand {
    @ParentCommand SampleCommand sample;

    @Option(names = "--n", required = true, paramLabel = "N", description = "issues to draw")
    int n;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the draw")
    long seed = 1;

    @picocli.CommandLine.Mixin ScopeOptions scope = new ScopeOptions();

    @Option(
        names = "--output",
        required = true,
        paramLabel = "FILE",
        description = "the JSON lines file to write")
    Path output;

    @Override
    public Integer call() throws IOException {
      if (n < 1) {
        throw usageError("--n must be at least 1");
      }
      ValidationSamples.Scope inScope =
          new ValidationSamples.Scope(scope.framework, scope.from(), scope.to());
      GraphConfig config = sample.graph();
      ValidationSamples.Drawn drawn;
      try (Driver driver = config.openDriver()) {
        drawn = new ValidationSamples(driver, config.database()).draw(inScope, n, seed);
      }
      try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
        for (ValidationSamples.DrawnIssue issue : drawn.issues()) {
          w.write(JSON.writeValueAsString(line(drawn, issue)));
          w.write('\n');
        }
      }
      out.printf(
          "sample %s: %d of %d issues in scope, written to %s; fill in %s and run 'faultline sample"
              + " import --labels %s'%n",
          drawn.id(),
          drawn.issues().size(),
          drawn.population(),
          output,
          String.join(", ", fields().stream().map(Dimension::field).toList()),
          output);
      return 0;
    }

    static Map<String, Object> line(ValidationSamples.Drawn drawn, ValidationSamples.DrawnIssue i) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("sample", drawn.id());
      m.put("scope", drawn.scope().toMap());
      m.put("id", i.id());
      m.put("url", i.url());
      m.put("title", i.title());
      m.put("excerpt", i.excerpt());
      for (Dimension d : fields()) {
        m.put(d.field(), "");
      }
      return m;
    }
  }

  @Command(
      name = "import",
      description = {
        "Record a labelled sample file as a person's labels of its issues.",
        "",
        "Every line is checked first (codes of the codebook, issues drawn in that sample); a bad line",
        "stops the import with its number and nothing is written. An empty field is a dimension left",
        "unlabelled (kind is required); distributed_specific takes true, false or null (cannot tell)."
      })
  static final class Import extends CliCommand {
    @ParentCommand SampleCommand sample;

    @Option(
        names = "--labels",
        required = true,
        paramLabel = "FILE",
        description = "the file sample draw wrote, filled in")
    Path labels;

    @Override
    public Integer call() throws IOException {
      List<ValidationSamples.LabelLine> lines = read(labels);
      GraphConfig config = sample.graph();
      try (Driver driver = config.openDriver()) {
        ValidationSamples.Imported imported;
        try {
          imported = new ValidationSamples(driver, config.database()).importLabels(lines);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(labels + ": " + e.getMessage(), e);
        }
        out.printf(
            "sample %s: %d of its %d issues labelled and recorded%n",
            imported.sample(), imported.labelled(), imported.drawn());
        out.print(partial(imported.perDimension(), imported.drawn()));
      }
      return 0;
    }

    /** The labelled lines of a file; an error names the file and line. */
    static List<ValidationSamples.LabelLine> read(Path file) throws IOException {
      List<ValidationSamples.LabelLine> lines = new ArrayList<>();
      int number = 0;
      for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        number++;
        if (text.isBlank()) {
          continue;
        }
        try {
          lines.add(parse(number, JSON.readTree(text)));
        } catch (IOException | UncheckedIOException e) {
          throw new IllegalArgumentException(file + ":" + number + ": not a JSON object");
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(file + ":" + e.getMessage(), e);
        }
      }
      return lines;
    }

    static ValidationSamples.LabelLine parse(int number, JsonNode node) {
      if (!(node instanceof ObjectNode o)) {
        throw new IllegalArgumentException(number + ": not a JSON object");
      }
      String sample = o.path("sample").asText("");
      String id = o.path("id").asText("");
      if (sample.isEmpty() || id.isEmpty()) {
        throw new IllegalArgumentException(
            number + ": 'sample' and 'id' are missing: use the file sample draw wrote");
      }
      Map<String, String> labels = new LinkedHashMap<>();
      for (Dimension d : fields()) {
        JsonNode v = o.get(d.field());
        if (v == null || (v.isTextual() && v.asText().isBlank())) {
          continue; // left unlabelled
        }
        labels.put(d.key(), v.isNull() ? "null" : v.asText().strip());
      }
      return new ValidationSamples.LabelLine(number, sample, id, labels);
    }
  }

  @Command(
      name = "status",
      description = {
        "List every validation sample: its scope, what was labelled, and which scopes it serves.",
        "",
        "A sample serves the issues of the population it was drawn from: in its scope and in the",
        "graph when it was drawn. A query's scope that holds its labelled issues uses it for those",
        "issues (PPI where a group has 10 or more labelled) and the classifier alone for the rest,",
        "issues added after the draw included; the rows say how many."
      })
  static final class Status extends CliCommand {
    @ParentCommand SampleCommand sample;

    @Override
    public Integer call() {
      GraphConfig config = sample.graph();
      List<ValidationSamples.Status> samples;
      try (Driver driver = config.openDriver()) {
        samples = new ValidationSamples(driver, config.database()).status();
      }
      if (samples.isEmpty()) {
        out.println("no validation sample in the graph: draw one with 'faultline sample draw'");
        return 0;
      }
      samples.forEach(s -> out.print(describe(s)));
      return 0;
    }

    static String describe(ValidationSamples.Status s) {
      StringBuilder b = new StringBuilder();
      b.append(String.format("%s  drawn %s%n", s.id(), s.drawnAt()));
      b.append(String.format("  scope: %s%n", ValidationSamples.describe(s.scope())));
      b.append(
          String.format(
              "  drew %d of %d issues (seed %d); %d labelled%s%n",
              s.drawn(),
              s.population(),
              s.seed(),
              s.labelled(),
              s.importedAt() == null ? " (nothing imported yet)" : ", imported " + s.importedAt()));
      List<String> parts = new ArrayList<>();
      for (Dimension d : fields()) {
        parts.add(d.field() + " " + s.perDimension().getOrDefault(d.key(), 0) + "/" + s.drawn());
      }
      b.append("  labelled per dimension: ").append(String.join(", ", parts)).append('\n');
      b.append(partial(s.perDimension(), s.drawn()));
      b.append(
          String.format(
              "  serves: the issues of its scope that were in the graph at the draw, in any query"
                  + " scope that holds them; %d issues of its scope came later and are estimated"
                  + " without it%n",
              s.addedSinceDraw()));
      return b.toString();
    }
  }
}
