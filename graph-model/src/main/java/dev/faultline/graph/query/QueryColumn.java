package dev.faultline.graph.query;

import java.util.Objects;

/**
 * One result column of a named query, as its header declares it: {@code // @column name Type [--
 * description]}. The type is documentation for readers of the result (e.g. {@code Integer}, {@code
 * DateTime}, {@code List<Map>}); values arrive as converted by {@link QueryLibrary}.
 */
public record QueryColumn(String name, String type, String description) {
  public QueryColumn {
    Objects.requireNonNull(name, "name");
    type = type == null ? "" : type;
    description = description == null ? "" : description;
  }
}
