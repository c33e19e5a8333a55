package dev.weft.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * DuckDB's appender (rows straight into a table's column buffers, one to two orders of magnitude
 * faster than INSERT statements), reached by reflection because DuckDB's driver is loaded at run
 * time (see {@link StoreEngine}). A row is {@link #beginRow}, one {@code append} per column in
 * table order, {@link #endRow}.
 */
final class Appender implements AutoCloseable {
  private static final MethodHandles.Lookup LOOKUP = MethodHandles.publicLookup();

  private final Object target;
  private final MethodHandle beginRow;
  private final MethodHandle endRow;
  private final MethodHandle appendLong;
  private final MethodHandle appendInt;
  private final MethodHandle appendString;
  private final MethodHandle appendNull;
  private final MethodHandle close;

  private Appender(Object target) throws ReflectiveOperationException {
    this.target = target;
    Class<?> type = target.getClass();
    beginRow = handle(type, "beginRow", MethodType.methodType(type));
    endRow = handle(type, "endRow", MethodType.methodType(type));
    appendLong = handle(type, "append", MethodType.methodType(type, long.class));
    appendInt = handle(type, "append", MethodType.methodType(type, int.class));
    appendString = handle(type, "append", MethodType.methodType(type, String.class));
    appendNull = handle(type, "appendNull", MethodType.methodType(type));
    close = handle(type, "close", MethodType.methodType(void.class));
  }

  private static MethodHandle handle(Class<?> type, String name, MethodType t)
      throws ReflectiveOperationException {
    // Erased to (Object, args) -> Object (or void), so that invokeExact needs no DuckDB type here.
    Class<?> returns = t.returnType() == void.class ? void.class : Object.class;
    MethodType erased = t.changeReturnType(returns).insertParameterTypes(0, Object.class);
    return LOOKUP.findVirtual(type, name, t).asType(erased);
  }

  /** An appender to {@code table} (in the main schema) of {@code c}, a DuckDB connection. */
  static Appender open(Connection c, String table) throws StoreException {
    try {
      Object appender =
          c.getClass()
              .getMethod("createAppender", String.class, String.class)
              .invoke(c, "main", table);
      return new Appender(appender);
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new StoreException("cannot append to DuckDB table " + table + ": " + cause, e);
    }
  }

  void beginRow() throws SQLException {
    call(beginRow);
  }

  void endRow() throws SQLException {
    call(endRow);
  }

  void append(long v) throws SQLException {
    try {
      Object unused = appendLong.invokeExact(target, v);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }

  void append(int v) throws SQLException {
    try {
      Object unused = appendInt.invokeExact(target, v);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }

  /** A string, or SQL NULL for null. */
  void append(String v) throws SQLException {
    if (v == null) {
      call(appendNull);
      return;
    }
    try {
      Object unused = appendString.invokeExact(target, v);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }

  void appendNull() throws SQLException {
    call(appendNull);
  }

  private void call(MethodHandle h) throws SQLException {
    try {
      Object unused = h.invokeExact(target);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }

  /** Flushes the rows still buffered into the table. */
  @Override
  public void close() throws SQLException {
    try {
      close.invokeExact(target);
    } catch (SQLException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new SQLException(e);
    }
  }
}
