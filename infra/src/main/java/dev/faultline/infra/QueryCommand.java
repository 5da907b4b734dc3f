package dev.faultline.infra;

import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.graph.query.QueryParameter;
import dev.faultline.graph.query.ResultFormatter;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.exceptions.AuthenticationException;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code faultline query --list} and {@code faultline query NAME [--param k=v]... [--format
 * table|json|csv]}: the graph's named queries, run against the Neo4j named by the environment.
 */
@Command(
    name = "query",
    description = {
      "Run a named graph query (--list shows them) and print table, json or csv.",
      "",
      "Runs one of the graph's named Cypher queries (read-only) and prints its rows."
    },
    footer = {
      "",
      "Counting queries count only labels whose confidence passes a bar: by default the per-dimension bars at which",
      "the classifier's precision is 90%%; --param minConfidence=all counts every label, a number from 0 to 1 sets one",
      "bar for every dimension. Their inScope, labelled and coverage columns say how many issues that leaves out.",
      "",
      GraphConfig.ENVIRONMENT_HELP,
      "FAULTLINE_MIN_CONFIDENCE: the default bar (calibrated, all or a number; the system property",
      "faultline.minConfidence wins over it)."
    })
final class QueryCommand extends CliCommand {
  @Parameters(paramLabel = "NAME", arity = "0..1", description = "the query (see --list)")
  String query;

  @Option(
      names = "--list",
      description = "list the queries with their parameters, types and defaults")
  boolean list;

  @Option(
      names = {"--param", "-p"},
      paramLabel = "NAME=VALUE",
      description = "a query parameter; repeat for several. VALUE 'null' means no value")
  List<String> params = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = FormatConverter.class,
      completionCandidates = FormatNames.class,
      description = "table, json (an array of row objects) or csv")
  ResultFormatter.Format format = ResultFormatter.Format.TABLE;

  private final Map<String, String> environment;

  /**
   * A command reading its Neo4j settings and default confidence bar from {@code environment} (tests
   * pass their own).
   */
  QueryCommand(Map<String, String> environment) {
    this.environment = environment;
  }

  /** Runs {@code faultline query ARGS}; returns the exit code. */
  int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(this, args, out, err);
  }

  @Override
  public Integer call() {
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String pair : params) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw usageError("--param needs NAME=VALUE, got '" + pair + "'");
      }
      String name = pair.substring(0, eq).strip();
      if (parameters.put(name, pair.substring(eq + 1)) != null) {
        throw usageError("--param " + name + " given twice");
      }
    }
    if (list) {
      out.print(describe(QueryLibrary.loadDefinitions()));
      return 0;
    }
    if (query == null) {
      throw usageError("name a query or use --list");
    }
    Arguments arguments = new Arguments(query, format, parameters);
    List<QueryDefinition> definitions = QueryLibrary.loadDefinitions();
    QueryDefinition query =
        definitions.stream().filter(d -> d.name().equals(arguments.query)).findFirst().orElse(null);
    if (query == null) {
      err.println(
          "faultline query: unknown query '"
              + arguments.query
              + "': run 'faultline query --list' to see them");
      return 2;
    }
    ConfidencePolicy confidence;
    try {
      confidence = ConfidencePolicy.fromEnvironment(environment, System.getProperties());
      query.bind(arguments.parameters, confidence);
    } catch (IllegalArgumentException e) {
      err.println("faultline query " + query.name() + ": " + e.getMessage());
      return 2;
    }
    GraphConfig config;
    try {
      config = GraphConfig.fromEnvironment(environment);
    } catch (IllegalArgumentException | NullPointerException e) {
      err.println("faultline query: " + e.getMessage());
      return 2;
    }
    try (Driver driver = config.openDriver()) {
      List<Map<String, Object>> rows =
          new QueryLibrary(driver, config.database(), QueryLibrary.DEFAULT_TIMEOUT, confidence)
              .run(query.name(), arguments.parameters);
      out.print(new ResultFormatter(arguments.format).format(query.columnNames(), rows));
      return 0;
    } catch (ServiceUnavailableException e) {
      err.println(
          "faultline query: cannot reach Neo4j at "
              + config.uri()
              + ": start the local stack ('faultline local') or set FAULTLINE_NEO4J_URI ("
              + e.getMessage()
              + ")");
      return 1;
    } catch (AuthenticationException e) {
      err.println(
          "faultline query: Neo4j refused user '"
              + config.user()
              + "': check FAULTLINE_NEO4J_USER and FAULTLINE_NEO4J_PASSWORD");
      return 1;
    } catch (ClientException e) {
      err.println(
          "faultline query " + query.name() + ": Neo4j rejected the query: " + e.getMessage());
      return 1;
    }
  }

  /** The {@code --list} text: each query, its description, its parameters and its columns. */
  static String describe(List<QueryDefinition> definitions) {
    StringBuilder b = new StringBuilder();
    for (QueryDefinition q : definitions) {
      b.append(q.name()).append('\n');
      b.append("  ").append(q.description()).append('\n');
      if (q.parameters().isEmpty()) {
        b.append("  parameters: none\n");
      }
      for (QueryParameter p : q.parameters()) {
        String value =
            p.required()
                ? "required"
                : p.type() == QueryParameter.Type.CONFIDENCE
                    ? "default: calibrated per dimension, or " + ConfidencePolicy.ENVIRONMENT
                    : "default " + (p.defaultValue() == null ? "null" : render(p.defaultValue()));
        b.append("  --param ")
            .append(p.name())
            .append('=')
            .append(p.typeText())
            .append("  (")
            .append(value)
            .append(")  ")
            .append(p.description())
            .append('\n');
      }
      b.append("  columns: ").append(String.join(", ", q.columnNames())).append("\n\n");
    }
    return b.toString();
  }

  private static String render(Object value) {
    if (value instanceof java.time.ZonedDateTime t) {
      return java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t);
    }
    return String.valueOf(value);
  }

  /** The parsed command line. */
  private record Arguments(
      String query, ResultFormatter.Format format, Map<String, String> parameters) {}

  /** {@code --format}: table, json or csv, in any case. */
  static final class FormatConverter implements CommandLine.ITypeConverter<ResultFormatter.Format> {
    @Override
    public ResultFormatter.Format convert(String value) {
      try {
        return ResultFormatter.Format.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** The format names for shell completion. */
  static final class FormatNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of("table", "json", "csv").iterator();
    }
  }
}
