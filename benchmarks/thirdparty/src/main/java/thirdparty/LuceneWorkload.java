package thirdparty;

import java.util.SplittableRandom;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene: 4 threads add documents to one IndexWriter (in-memory directory, 4 MB RAM buffer, so
 * segments flush often), ConcurrentMergeScheduler with one merge thread and a low segment tier, so
 * merges run all the time and indexing threads can be stalled. Then commit and forceMerge(1), which
 * waits for the merge threads. The driver times addDocument, commit and forceMerge.
 */
final class LuceneWorkload {
  static final String[] WORDS = new String[4000];

  static {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < WORDS.length; i++) {
      char[] w = new char[3 + r.nextInt(8)];
      for (int j = 0; j < w.length; j++) w[j] = (char) ('a' + r.nextInt(26));
      WORDS[i] = new String(w);
    }
  }

  static String text(SplittableRandom r, int words) {
    StringBuilder sb = new StringBuilder(words * 8);
    for (int i = 0; i < words; i++) {
      double u = r.nextDouble();
      sb.append(WORDS[(int) (WORDS.length * u * u)]).append(' ');
    }
    return sb.toString();
  }

  static void run(double scale) throws Exception {
    int docsPerThread = (int) (25000 * scale);
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(new StandardAnalyzer());
    cfg.setRAMBufferSizeMB(4);
    ConcurrentMergeScheduler cms = new ConcurrentMergeScheduler();
    cms.setMaxMergesAndThreads(2, 1);
    cfg.setMergeScheduler(cms);
    TieredMergePolicy mp = new TieredMergePolicy();
    mp.setSegmentsPerTier(4);
    cfg.setMergePolicy(mp);
    IndexWriter w = new IndexWriter(dir, cfg);
    Thread[] ts = new Thread[4];
    for (int t = 0; t < ts.length; t++) {
      final int id = t;
      ts[t] = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(id);
        try {
          for (int i = 0; i < docsPerThread; i++) {
            Document d = new Document();
            d.add(new StringField("id", id + "-" + i, Field.Store.YES));
            d.add(new TextField("title", text(r, 8), Field.Store.YES));
            d.add(new TextField("body", text(r, 60), Field.Store.NO));
            long t0 = System.nanoTime();
            w.addDocument(d);
            Truth.add("addDocument", System.nanoTime() - t0);
          }
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
        Truth.threadDone();
      }, "indexer-" + t);
    }
    long t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    long t1 = System.nanoTime();
    w.commit();
    long t2 = System.nanoTime();
    w.forceMerge(1);
    long t3 = System.nanoTime();
    w.close();
    long t4 = System.nanoTime();
    Truth.add("driver_join", t1 - t0);
    Truth.add("commit", t2 - t1);
    Truth.add("forceMerge", t3 - t2);
    Truth.add("close", t4 - t3);
    Truth.print("lucene", "indexer-", "Lucene Merge Thread", "main");
  }

  private LuceneWorkload() {}
}
