package dev.faultline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.testing.SharedNeo4j;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Values;

/**
 * The taxonomy nodes of every dimension that has them, seeded from the resource alone: one node per
 * code under the dimension's label, every symptom IS_A its class, root causes with their group;
 * seeding again changes nothing.
 */
@ExtendWith(SharedNeo4j.class)
class TaxonomySeederIT {
  private static long count(Driver driver, String cypher) {
    try (var session = driver.session()) {
      return session.run(cypher).single().get(0).asLong();
    }
  }

  @Test
  void everyCodeOfEveryNodeDimensionIsANodeAndEverySymptomIsAClass(Driver driver) {
    Taxonomy taxonomy = Taxonomy.load();
    TaxonomySeeder seeder = new TaxonomySeeder(driver, SharedNeo4j.DATABASE, taxonomy);
    seeder.seed();
    seeder.seed();
    for (Dimension d : Dimension.values()) {
      if (d.nodeLabel().isEmpty()) {
        continue;
      }
      String label = d.nodeLabel().get();
      try (var session = driver.session()) {
        long found =
            session
                .run(
                    "MATCH (n) WHERE $label IN labels(n) AND n.code IN $codes"
                        + " AND n.taxonomyVersion = $version RETURN count(n)",
                    Values.parameters(
                        "label", label, "codes", taxonomy.codes(d), "version", taxonomy.version()))
                .single()
                .get(0)
                .asLong();
        assertEquals(taxonomy.codes(d).size(), found, label);
      }
    }
    long symptoms = taxonomy.codes(Dimension.SYMPTOM).size();
    assertEquals(
        symptoms,
        count(driver, "MATCH (s:Symptom)-[r:IS_A]->(:SymptomClass) RETURN count(r)"),
        "one IS_A per symptom, not doubled by seeding twice");
    assertEquals(
        0,
        count(
            driver,
            "MATCH (r:RootCause) WHERE r.code <> 'UNKNOWN' AND r.group IS NULL RETURN count(r)"),
        "every root cause but UNKNOWN has its group");
  }
}
