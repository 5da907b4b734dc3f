package dev.faultline.ingest.backfill.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.ingest.backfill.git.MergedChange.FileChange;
import dev.faultline.ingest.backfill.git.MergedChange.Kind;
import dev.faultline.ingest.backfill.git.MergedChange.Status;
import dev.faultline.ingest.backfill.git.testing.GitHistoryFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitHistoryReaderTest {
  private static final String REPO = "acme/trainer";
  private static final Instant T0 = Instant.parse("2025-01-10T09:00:00Z");

  @TempDir Path tmp;
  private Path bare;
  private ObjectId squash;
  private ObjectId merge;
  private ObjectId side;
  private ObjectId lastDirect;

  private static Instant day(int n) {
    return T0.plusSeconds(86_400L * n);
  }

  private static String lines(int n, String prefix) {
    return IntStream.rangeClosed(1, n)
        .mapToObj(i -> prefix + " " + i + "\n")
        .collect(Collectors.joining());
  }

  /** Seven changes on main (and one commit on a pull request's branch), three tags. */
  @BeforeEach
  void buildHistory() throws IOException {
    bare = tmp.resolve("trainer.git");
    try (GitHistoryFixture git = GitHistoryFixture.create(bare)) {
      git.write("src/comm.py", lines(10, "line")).write("README.md", "# trainer\nold intro\n");
      ObjectId first = git.commit("Initial import", day(0), "dev@example.org");
      git.lightweightTag("nightly", first);

      git.write(
          "src/comm.py", git.text("src/comm.py").replace("line 3\n", "line three\nextra line\n"));
      squash =
          git.commit(
              "Fix hang in all_reduce when a rank exits early (#123)\n\n"
                  + "Fixes #12\ncloses other/lib#7\nResolves https://github.com/acme/trainer/issues/30\n\n"
                  + "Co-authored-by: Someone <someone@example.org>\n",
              day(1),
              "4567+alice@users.noreply.github.com");
      git.annotatedTag("v0.16.4", squash, day(2));

      git.write("src/timeout.py", "TIMEOUT = 1800\nRETRIES = 3\nBACKOFF = 2\n");
      side = git.sideCommit(squash, "raise the timeout", day(3));
      merge =
          git.commit(
              "Merge pull request #45 from bob/fix-timeout\n\nRaise the NCCL timeout for slow ranks\n\nfix #13\n",
              day(4),
              "maintainer@example.org",
              side);

      git.write("assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1, 2});
      git.write("README.md", "# trainer\nnew intro\n");
      git.commit("Add logo (#50)", day(5), "carol@example.org");

      git.delete("src/timeout.py")
          .write("src/timeouts.py", "TIMEOUT = 1800\nRETRIES = 3\nBACKOFF = 2\n");
      git.commit("Rename timeout module (#51)", day(6), "carol@example.org");

      git.write("src/comm.py", git.text("src/comm.py") + "line 11\n");
      git.commitRawMessage(
          "Corrige l'arr\u00eat du processus (#60)\n".getBytes(StandardCharsets.ISO_8859_1),
          day(7));

      git.write("VERSION", "0.16.5\n");
      lastDirect = git.commit("Bump version to 0.16.5", day(8), "release@example.org");
      git.lightweightTag("v0.16.5", lastDirect);
      git.lightweightTag("v0.17.0rc1", lastDirect);
    }
  }

  private List<MergedChange> readAll(
      GitHistoryReader reader, Optional<Instant> since, Optional<Instant> until)
      throws IOException {
    Ref branch = reader.defaultBranch(Optional.empty());
    List<MergedChange> changes = new ArrayList<>();
    for (ObjectId id : reader.firstParentHistory(branch, since, until)) {
      changes.add(reader.read(id));
    }
    return changes;
  }

  private List<MergedChange> readAll() throws IOException {
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      return readAll(reader, Optional.empty(), Optional.empty());
    }
  }

  @Test
  void walksTheFirstParentHistoryOfTheDefaultBranchOldestFirst() throws IOException {
    List<MergedChange> changes = readAll();
    assertEquals(7, changes.size(), "the pull request branch's own commit is not a change of main");
    assertFalse(changes.stream().anyMatch(c -> c.sha().equals(side.name())));
    assertEquals(
        List.of(
            Kind.DIRECT,
            Kind.SQUASH,
            Kind.MERGE,
            Kind.SQUASH,
            Kind.SQUASH,
            Kind.SQUASH,
            Kind.DIRECT),
        changes.stream().map(MergedChange::kind).toList());
    assertEquals(
        java.util.Arrays.asList(null, 123, 45, 50, 51, 60, null),
        changes.stream().map(MergedChange::number).toList());
  }

  @Test
  void readsASquashMergeWithItsSizeAuthorAndEveryFormOfClosingReference() throws IOException {
    MergedChange c = readAll().get(1);
    assertEquals(squash.name(), c.sha());
    assertEquals("Fix hang in all_reduce when a rank exits early", c.title());
    assertTrue(c.body().startsWith("Fixes #12"), c.body());
    assertEquals(
        List.of("acme/trainer#12", "other/lib#7", "acme/trainer#30"), c.closingReferences());
    assertEquals("alice", c.authorLogin(), "from the noreply address");
    assertEquals(day(1), c.mergedAt());
    assertEquals(1, c.changedFiles());
    assertEquals(2, c.additions());
    assertEquals(1, c.deletions());
    assertEquals(List.of(new FileChange("src/comm.py", Status.MODIFIED, 2, 1, false)), c.files());
  }

  @Test
  void readsAMergeCommitAgainstItsFirstParentWithThePullRequestTitleFromTheBody()
      throws IOException {
    MergedChange c = readAll().get(2);
    assertEquals(merge.name(), c.sha());
    assertEquals(45, c.number());
    assertEquals("Raise the NCCL timeout for slow ranks", c.title());
    assertEquals("fix #13", c.body());
    assertEquals("bob", c.authorLogin(), "the owner of the pull request's branch");
    assertEquals(List.of("acme/trainer#13"), c.closingReferences());
    assertEquals(List.of(new FileChange("src/timeout.py", Status.ADDED, 3, 0, false)), c.files());
  }

  @Test
  void countsABinaryFileAsChangedWithNoLines() throws IOException {
    MergedChange c = readAll().get(3);
    assertEquals(2, c.changedFiles());
    assertEquals(1, c.additions());
    assertEquals(1, c.deletions());
    assertEquals(
        List.of(
            new FileChange("README.md", Status.MODIFIED, 1, 1, false),
            new FileChange("assets/logo.png", Status.ADDED, 0, 0, true)),
        c.files());
    assertTrue(c.diffSummary().contains("Binary file assets/logo.png added"), c.diffSummary());
    assertTrue(c.diffSummary().contains("-old intro\n+new intro\n"), c.diffSummary());
  }

  @Test
  void countsAFileMovedUnchangedOnceAsARename() throws IOException {
    MergedChange c = readAll().get(4);
    assertEquals(
        List.of(new FileChange("src/timeouts.py", Status.RENAMED, 0, 0, false)), c.files());
    assertEquals(0, c.additions() + c.deletions());
  }

  @Test
  void decodesAMessageThatIsNotUtf8LenientlyAndSaysSo() throws IOException {
    List<MergedChange> changes = readAll();
    MergedChange c = changes.get(5);
    assertTrue(c.leniencyDecoded());
    assertEquals("Corrige l'arr\u00eat du processus", c.title());
    assertEquals(60, c.number());
    assertEquals(1, c.additions());
    assertEquals(
        1,
        changes.stream().filter(MergedChange::leniencyDecoded).count(),
        "UTF-8 messages are not lenient");
  }

  @Test
  void keysADirectCommitByItsShaWithoutANumber() throws IOException {
    MergedChange c = readAll().get(6);
    assertEquals(Kind.DIRECT, c.kind());
    assertNull(c.number());
    assertEquals(lastDirect.name(), c.sha());
    assertEquals("Bump version to 0.16.5", c.title());
    assertNull(c.authorLogin());
  }

  @Test
  void boundsTheDiffSummary() throws IOException {
    Path dir = tmp.resolve("big.git");
    try (GitHistoryFixture git = GitHistoryFixture.create(dir)) {
      git.write("a.txt", lines(3_000, "old"));
      git.commit("Initial", day(0), "dev@example.org");
      git.write("a.txt", lines(3_000, "new"));
      git.commit("Rewrite (#2)", day(1), "dev@example.org");
    }
    try (GitHistoryReader reader = GitHistoryReader.open(dir, REPO)) {
      MergedChange c = readAll(reader, Optional.empty(), Optional.empty()).get(1);
      assertEquals(3_000, c.additions());
      assertEquals(3_000, c.deletions());
      assertEquals(ChangeDiffer.SUMMARY_CHARS, c.diffSummary().length());
      assertTrue(
          c.diffSummary().startsWith("--- a/a.txt\n+++ b/a.txt\n@@ -1,3000 +1,3000 @@\n-old 1\n"),
          c.diffSummary());
    }
  }

  @Test
  void keepsOnlyTheChangesCommittedInTheRange() throws IOException {
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      List<MergedChange> changes = readAll(reader, Optional.of(day(4)), Optional.of(day(6)));
      assertEquals(List.of(45, 50), changes.stream().map(MergedChange::number).toList());
      assertEquals(List.of(), readAll(reader, Optional.of(day(9)), Optional.empty()));
    }
  }

  @Test
  void findsReleaseTagsByPatternWithTheTagOrCommitDate() throws IOException {
    try (GitHistoryReader reader = GitHistoryReader.open(bare, REPO)) {
      List<ReleaseTag> tags =
          reader.releaseTags(
              ReleaseTagPatterns.forRepository(REPO), Optional.empty(), Optional.empty());
      assertEquals(
          List.of(
              new ReleaseTag("v0.16.4", squash.name(), day(2), true, false),
              new ReleaseTag("v0.16.5", lastDirect.name(), day(8), false, false),
              new ReleaseTag("v0.17.0rc1", lastDirect.name(), day(8), false, true)),
          tags);
      List<ReleaseTag> deepSpeed =
          reader.releaseTags(
              ReleaseTagPatterns.forRepository("deepspeedai/DeepSpeed"),
              Optional.empty(),
              Optional.empty());
      assertEquals(
          List.of("v0.16.4", "v0.16.5"), deepSpeed.stream().map(ReleaseTag::name).toList());
      assertEquals(
          List.of("v0.16.5", "v0.17.0rc1"),
          reader
              .releaseTags(
                  ReleaseTagPatterns.forRepository(REPO), Optional.of(day(3)), Optional.empty())
              .stream()
              .map(ReleaseTag::name)
              .toList());
    }
  }

  @Test
  void megatronCoreTagsAreReleases() {
    ReleaseTagPatterns megatron = ReleaseTagPatterns.forRepository("NVIDIA/Megatron-LM");
    assertTrue(megatron.isRelease("core_v0.10.0"));
    assertTrue(megatron.isRelease("v2.5"));
    assertFalse(megatron.isRelease("core_r0.8.0"));
    assertFalse(ReleaseTagPatterns.forRepository("deepspeedai/DeepSpeed").isRelease("nightly"));
  }

  @Test
  void readsAWorkingTreeCloneLikeTheBareMirror() throws Exception {
    Path clone = tmp.resolve("clone");
    try (Git git =
        Git.cloneRepository().setURI(bare.toUri().toString()).setDirectory(clone.toFile()).call()) {
      assertTrue(Files.isDirectory(clone.resolve(".git")));
    }
    try (GitHistoryReader reader = GitHistoryReader.open(clone, REPO)) {
      assertEquals(
          Optional.empty(), reader.originRepository(), "cloned from a path, not from GitHub");
      reader
          .repository()
          .getConfig()
          .setString("remote", "origin", "url", "https://github.com/acme/trainer.git");
      assertEquals(Optional.of("acme/trainer"), reader.originRepository());
      reader
          .repository()
          .getConfig()
          .setString("remote", "origin", "url", "git@github.com:deepspeedai/DeepSpeed.git");
      assertEquals(Optional.of("deepspeedai/DeepSpeed"), reader.originRepository());
      List<MergedChange> changes = readAll(reader, Optional.empty(), Optional.empty());
      assertEquals(
          readAll().stream().map(MergedChange::sha).toList(),
          changes.stream().map(MergedChange::sha).toList());
    }
  }

  @Test
  void refusesAPathThatIsNotAGitRepository() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertThrows(
        GitHistoryReader.NotARepositoryException.class, () -> GitHistoryReader.open(empty, REPO));
    Path file = Files.writeString(tmp.resolve("file.txt"), "x");
    assertThrows(
        GitHistoryReader.NotARepositoryException.class, () -> GitHistoryReader.open(file, REPO));
    assertThrows(
        GitHistoryReader.NotARepositoryException.class,
        () -> GitHistoryReader.open(tmp.resolve("missing"), REPO));
  }

  private static int[] numstat(byte[] a, byte[] b) {
    int[] counts = new int[2];
    for (org.eclipse.jgit.diff.Edit e :
        org.eclipse.jgit.diff.DiffAlgorithm.getAlgorithm(
                org.eclipse.jgit.diff.DiffAlgorithm.SupportedAlgorithm.HISTOGRAM)
            .diff(
                org.eclipse.jgit.diff.RawTextComparator.DEFAULT,
                new org.eclipse.jgit.diff.RawText(a),
                new org.eclipse.jgit.diff.RawText(b))) {
      counts[0] += e.getLengthB();
      counts[1] += e.getLengthA();
    }
    return counts;
  }

  @Test
  void cuttingTheCommonStartAndEndOnTheBytesCountsLikeTheWholeDiff() {
    java.util.Random random = new java.util.Random(16);
    for (int round = 0; round < 2_000; round++) {
      List<String> a = new ArrayList<>();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) {
        a.add("l" + random.nextInt(8));
      }
      List<String> b = new ArrayList<>(a);
      for (int edits = random.nextInt(4); edits > 0; edits--) {
        int at = b.isEmpty() ? 0 : random.nextInt(b.size() + 1);
        switch (random.nextInt(3)) {
          case 0 -> b.add(at, "new" + random.nextInt(3));
          case 1 -> {
            if (at < b.size()) b.remove(at);
          }
          default -> {
            if (at < b.size()) b.set(at, b.get(at) + "x");
          }
        }
      }
      String ta = String.join("\n", a) + (random.nextBoolean() && !a.isEmpty() ? "\n" : "");
      String tb = String.join("\n", b) + (random.nextBoolean() && !b.isEmpty() ? "\n" : "");
      byte[] ba = ta.getBytes(StandardCharsets.UTF_8);
      byte[] bb = tb.getBytes(StandardCharsets.UTF_8);
      for (int context : new int[] {0, 1}) {
        ChangeDiffer.Middle m = ChangeDiffer.middle(ba, bb, context);
        assertEquals(
            java.util.Arrays.toString(numstat(ba, bb)),
            java.util.Arrays.toString(numstat(m.a(), m.b())),
            "context " + context + ": " + ta.replace("\n", "|") + " -> " + tb.replace("\n", "|"));
      }
    }
    assertEquals(3, ChangeDiffer.lines("a\nb\nc".getBytes(StandardCharsets.UTF_8)));
    assertEquals(2, ChangeDiffer.lines("a\nb\n".getBytes(StandardCharsets.UTF_8)));
    assertEquals(0, ChangeDiffer.lines(new byte[0]));
  }
}
