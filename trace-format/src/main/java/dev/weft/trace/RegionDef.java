package dev.weft.trace;

/**
 * A region descriptor (POMP's context descriptor): one woven call site or user region.
 *
 * @param id the int that events carry
 * @param kind the construct
 * @param name region name (a user region's name, or the construct, e.g. {@code ReentrantLock.lock})
 * @param declaringClass the class whose code contains the call site (binary name), or "" when
 *     unknown
 * @param method the method containing the call site, or ""
 * @param file source file name, or "" when the class has no SourceFile attribute
 * @param firstLine first source line, 0 when unknown
 * @param lastLine last source line, 0 when unknown
 */
public record RegionDef(
    int id,
    ConstructKind kind,
    String name,
    String declaringClass,
    String method,
    String file,
    int firstLine,
    int lastLine) {

  /** {@code File.java:12} or {@code File.java:12-30}; the class name when there is no file. */
  public String location() {
    String where = file.isEmpty() ? declaringClass : file;
    if (firstLine <= 0) {
      return where;
    }
    return lastLine > firstLine
        ? where + ":" + firstLine + "-" + lastLine
        : where + ":" + firstLine;
  }
}
