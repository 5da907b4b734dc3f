package dev.faultline.jobs.classify;

import dev.faultline.classifier.learned.VectorStore;
import dev.faultline.graph.CypherResources;
import dev.faultline.graph.GraphConfig;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.Value;

/**
 * The graph as a {@link VectorStore}: the text vectors the sink wrote on issues ({@code textVector}
 * under {@code textVectorKey}, migration V0006's index), one index seek per lookup. A replay of
 * history asks it before encoding. A lookup that fails (Neo4j away) answers none, so the classifier
 * encodes: slower, never different. Thread-safe (one session per lookup).
 */
public final class Neo4jVectorStore implements VectorStore, AutoCloseable {

  static final String FIND = CypherResources.load("read/text-vector.cypher");

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(Neo4jVectorStore.class);

  /** Vectors found by every store of this JVM (what a replay did not encode). */
  private static final java.util.concurrent.atomic.AtomicLong FOUND =
      new java.util.concurrent.atomic.AtomicLong();

  /** Keys this store answered lately ({@link #holds}); at most {@value #REMEMBERED}. */
  static final int REMEMBERED = 4096;

  private final Driver driver;
  private final SessionConfig session;
  private final java.util.Set<String> answered =
      java.util.Collections.synchronizedSet(
          java.util.Collections.newSetFromMap(
              new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                  return size() > REMEMBERED;
                }
              }));

  public Neo4jVectorStore(GraphConfig graph) {
    this.driver = graph.openDriver();
    this.session =
        SessionConfig.builder()
            .withDatabase(graph.database())
            .withDefaultAccessMode(org.neo4j.driver.AccessMode.READ)
            .build();
  }

  @Override
  public float[] find(String key) {
    try (Session s = driver.session(session)) {
      List<org.neo4j.driver.Record> rows = s.run(FIND, Map.of("key", key)).list();
      if (rows.isEmpty()) {
        return null;
      }
      Value v = rows.get(0).get("v");
      float[] out = new float[v.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = (float) v.get(i).asDouble();
      }
      FOUND.incrementAndGet();
      answered.add(key);
      return out;
    } catch (RuntimeException e) {
      LOG.warn("text vector lookup failed, encoding instead: {}", e.toString());
      return null;
    }
  }

  /** Whether this store found a vector under the key lately: the graph holds it. */
  @Override
  public boolean holds(String key) {
    return answered.contains(key);
  }

  /** Vectors the stores of this JVM found since it started. */
  public static long foundInThisJvm() {
    return FOUND.get();
  }

  @Override
  public void close() {
    driver.close();
  }
}
