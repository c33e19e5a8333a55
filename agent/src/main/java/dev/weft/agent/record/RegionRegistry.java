package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Region descriptors (POMP's context descriptors): every woven call site, {@code @Traced} method
 * and user region gets an int id and a {@link RegionDef}, written to the trace's definitions before
 * the woven class is defined, so before any event can carry the id.
 *
 * <p>A <em>site</em> is a call site whose region name is only known at run time ({@code
 * Weft.region(name)} with a computed name): each distinct name seen there becomes one region, up to
 * {@value #MAX_NAMES_PER_SITE} names per site.
 */
public final class RegionRegistry {
  /** Distinct run-time names one site may define; later names share one region. */
  static final int MAX_NAMES_PER_SITE = 1000;

  /** The region that names beyond {@link #MAX_NAMES_PER_SITE} share. */
  static final String OVERFLOW_NAME = "(other names)";

  private final TraceWriter writer;
  private final AtomicInteger nextRegion = new AtomicInteger(1);
  private final AtomicInteger nextSite = new AtomicInteger(0);
  private final AtomicInteger definitionErrors = new AtomicInteger();
  private final Object growLock = new Object();
  // Indexed by region id; replaced (never mutated in place) when it grows.
  private volatile ConstructKind[] kinds = new ConstructKind[1024];
  private volatile Site[] sites = new Site[64];

  /** A call site with a run-time region name. */
  private static final class Site {
    final ConstructKind kind;
    final String declaringClass;
    final String method;
    final String file;
    final int line;
    // Regions by name; a hit allocates nothing (the String caches its hash, the Integer is kept).
    final ConcurrentHashMap<String, Integer> regionsByName = new ConcurrentHashMap<>();

    Site(ConstructKind kind, String declaringClass, String method, String file, int line) {
      this.kind = kind;
      this.declaringClass = declaringClass;
      this.method = method;
      this.file = file;
      this.line = line;
    }
  }

  /**
   * @param writer the trace the definitions go to
   */
  public RegionRegistry(TraceWriter writer) {
    this.writer = writer;
  }

  /** Reserves a region id; {@link #define} must follow before the id is used in woven code. */
  public int reserve() {
    return nextRegion.getAndIncrement();
  }

  /**
   * Writes the descriptor of a reserved region. When it cannot be written (trace closed, disk
   * full), the id must not be used: events carrying it would refer to nothing. The transformer
   * leaves a class unchanged when one of its regions failed ({@link #definitionErrors()}).
   *
   * @param declaringClass binary name ({@code com.acme.Cache$Entry})
   * @param file source file name or ""
   * @return whether the definition was written
   */
  public boolean define(
      int id,
      ConstructKind kind,
      String name,
      String declaringClass,
      String method,
      String file,
      int firstLine,
      int lastLine) {
    recordKind(id, kind);
    try {
      writer.defineRegion(
          new RegionDef(
              id,
              kind,
              name,
              declaringClass,
              method,
              file == null ? "" : file,
              firstLine,
              Math.max(firstLine, lastLine)));
      return true;
    } catch (IOException | RuntimeException e) {
      // The trace is closed or the disk refused.
      definitionErrors.incrementAndGet();
      return false;
    }
  }

  /** Reserves and defines in one step; returns the id. */
  public int register(
      ConstructKind kind,
      String name,
      String declaringClass,
      String method,
      String file,
      int firstLine,
      int lastLine) {
    int id = reserve();
    define(id, kind, name, declaringClass, method, file, firstLine, lastLine);
    return id;
  }

  /** Registers a call site whose region name is given at run time; returns the site id. */
  public int registerSite(
      ConstructKind kind, String declaringClass, String method, String file, int line) {
    int id = nextSite.getAndIncrement();
    Site site = new Site(kind, declaringClass, method, file, line);
    synchronized (growLock) {
      Site[] s = sites;
      if (id >= s.length) {
        s = Arrays.copyOf(s, Math.max(id + 1, s.length * 2));
      }
      s[id] = site;
      sites = s;
    }
    return id;
  }

  /**
   * The region for {@code name} at run-time-named site {@code site}, defined on first use; 0 when
   * the site is unknown or the region's definition could not be written (not retried: the caller
   * drops the events).
   */
  public int regionAt(int site, String name) {
    Site[] all = sites;
    if (site < 0 || site >= all.length || all[site] == null) {
      return 0;
    }
    Site s = all[site];
    Integer id = s.regionsByName.get(name);
    if (id == null) {
      boolean pinned = VirtualThreadPins.pin(); // the definition is written under monitors
      try {
        id = defineAt(s, name);
      } finally {
        if (pinned) {
          VirtualThreadPins.unpin();
        }
      }
    }
    return id;
  }

  private int defineAt(Site s, String name) {
    synchronized (s) {
      Integer id = s.regionsByName.get(name);
      if (id == null && s.regionsByName.size() >= MAX_NAMES_PER_SITE) {
        name = OVERFLOW_NAME; // a name with a counter in it must not grow the definitions forever
        id = s.regionsByName.get(name);
      }
      if (id == null) {
        int r = reserve();
        id = define(r, s.kind, name, s.declaringClass, s.method, s.file, s.line, s.line) ? r : 0;
        s.regionsByName.put(name, id);
      }
      return id;
    }
  }

  /** The construct kind of a defined region, or {@link ConstructKind#UNKNOWN}. */
  public ConstructKind kind(int region) {
    ConstructKind[] k = kinds;
    ConstructKind c = region >= 0 && region < k.length ? k[region] : null;
    return c == null ? ConstructKind.UNKNOWN : c;
  }

  /** Definitions that could not be written. */
  public int definitionErrors() {
    return definitionErrors.get();
  }

  private void recordKind(int id, ConstructKind kind) {
    synchronized (growLock) {
      ConstructKind[] k = kinds;
      if (id >= k.length) {
        k = Arrays.copyOf(k, Math.max(id + 1, k.length * 2));
      }
      k[id] = kind;
      kinds = k;
    }
  }
}
