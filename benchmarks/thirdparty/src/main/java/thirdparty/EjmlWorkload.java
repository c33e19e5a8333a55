package thirdparty;

import java.util.Random;
import org.ejml.concurrency.EjmlConcurrency;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_MT_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_MT_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;

/**
 * EJML, its concurrent dense operations: a ForkJoinPool of 4 workers of EJML's own
 * (EjmlConcurrency.setMaxThreads), on which main submits each parallel loop and waits in
 * ForkJoinTask.get(). Each round multiplies two 400 x 400 matrices (CommonOps_MT_DDRM.mult: one
 * parallel loop over the rows, a parallel stream inside the submitted task) and decomposes a
 * 300 x 300 matrix by Householder QR (QRDecompositionHouseholderColumn_MT_DDRM: one small parallel
 * loop per column, so many short fork-joins, most of them shorter than starting the workers). The
 * driver times each call (main's whole wait for it) and reads the workers' CPU time.
 */
final class EjmlWorkload {
  static final int WORKERS = 4;

  static void run(double scale) throws Exception {
    int rounds = Math.max(1, (int) (20 * scale));
    EjmlConcurrency.setMaxThreads(WORKERS);
    Random random = new Random(42);
    DMatrixRMaj a = random(400, 400, random);
    DMatrixRMaj b = random(400, 400, random);
    DMatrixRMaj c = new DMatrixRMaj(400, 400);
    DMatrixRMaj q = random(300, 300, random);
    double checksum = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      CommonOps_MT_DDRM.mult(a, b, c);
      long t1 = System.nanoTime();
      QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_MT_DDRM.qr();
      if (!qr.decompose(q.copy())) throw new IllegalStateException("QR failed");
      long t2 = System.nanoTime();
      Truth.add("mult", t1 - t0);
      Truth.add("qr", t2 - t1);
      checksum += c.get(r % 400, 7);
    }
    if (checksum == 42) System.out.println(); // keep the work
    Truth.print("ejml", "ForkJoinPool-", "main");
  }

  private static DMatrixRMaj random(int rows, int cols, Random random) {
    DMatrixRMaj m = new DMatrixRMaj(rows, cols);
    for (int i = 0; i < m.data.length; i++) m.data[i] = random.nextDouble() - 0.5;
    return m;
  }

  private EjmlWorkload() {}
}
