package dev.weft.check;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The input of a check cannot be used: a missing file, a file that is not an analysis, a budget
 * that names no property or is not a percentage, too few runs for the confidence asked for. The
 * message is one line for the user (the command prints it and exits 2; the Maven goal fails the
 * build with it).
 */
public final class CheckInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A one-line message naming what is wrong (and the file, when there is one). */
  public CheckInputException(String message) {
    super(message);
  }

  /** A one-line message naming what is wrong, with the cause kept for debugging. */
  public CheckInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An I/O problem in words, naming the file. */
  public static String describe(IOException e) {
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      String file = f.getFile() == null ? "" : f.getFile() + ": ";
      if (e instanceof NoSuchFileException) {
        return file + "no such file or directory";
      }
      if (e instanceof AccessDeniedException) {
        return file + "permission denied";
      }
      if (e instanceof FileAlreadyExistsException) {
        return file + "already exists";
      }
      if (e instanceof NotDirectoryException) {
        return file + "not a directory";
      }
      return file + oneLine(f.getReason() == null ? e.getClass().getSimpleName() : f.getReason());
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : oneLine(e.getMessage());
  }

  /** One line describing any failure: its message's first line, or its class name. */
  static String oneLine(Throwable t) {
    if (t instanceof IOException) {
      return describe((IOException) t);
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : oneLine(t.getMessage());
  }

  /** The first line of a message, trimmed. */
  public static String oneLine(String message) {
    if (message == null || message.isBlank()) {
      return "unknown error";
    }
    String s = message.strip();
    int nl = s.indexOf('\n');
    if (nl >= 0) {
      s = s.substring(0, nl).strip();
    }
    return s.replace('\r', ' ');
  }
}
