package dev.weft.agent.weave;

import dev.weft.agent.record.RegionRegistry;
import org.objectweb.asm.ClassReader;

/** The class being woven, as instrumentations see it. One instance per transformation. */
public final class WeaveTarget {
  private final String internalName;
  private final ClassLoader loader;
  private final byte[] classfile;
  private final boolean retransforming;
  private final RegionRegistry regions;
  private ClassReader reader;
  private String sourceFile = "";
  private boolean changed;
  private int syntheticMethods;

  WeaveTarget(
      String internalName,
      ClassLoader loader,
      byte[] classfile,
      boolean retransforming,
      RegionRegistry regions) {
    this.internalName = internalName;
    this.loader = loader;
    this.classfile = classfile;
    this.retransforming = retransforming;
    this.regions = regions;
  }

  /** {@code com/acme/Cache$Entry}. */
  public String internalName() {
    return internalName;
  }

  /** {@code com.acme.Cache$Entry}, as region descriptors name classes. */
  public String binaryName() {
    return internalName.replace('/', '.');
  }

  /** The defining loader; null for the bootstrap loader. */
  public ClassLoader loader() {
    return loader;
  }

  /** The class file as the JVM offered it (do not modify). */
  public byte[] classfile() {
    return classfile;
  }

  /**
   * Whether the class file holds the ASCII string {@code text} (e.g. the name of a field it
   * declares or refers to), found as the families' hints are.
   */
  public boolean mentions(String text) {
    WeftTransformer.ClassText.requireAscii(text);
    return new WeftTransformer.ClassText(classfile).containsAny(new String[] {text});
  }

  /** A reader over {@link #classfile()}, shared by all instrumentations of this class. */
  public ClassReader reader() {
    if (reader == null) {
      reader = new ClassReader(classfile);
    }
    return reader;
  }

  /**
   * True when the class was already loaded and is being retransformed (agent attached late): no
   * member may be added, and modifiers may not change.
   */
  public boolean retransforming() {
    return retransforming;
  }

  /** Where region descriptors are registered. */
  public RegionRegistry regions() {
    return regions;
  }

  /** The SourceFile attribute, or "" (known once the class's {@code visitSource} has passed). */
  public String sourceFile() {
    return sourceFile;
  }

  void sourceFile(String file) {
    this.sourceFile = file == null ? "" : file;
  }

  /**
   * A number not yet used for a synthetic method added to this class, shared by all
   * instrumentations so that their names never collide.
   */
  public int nextSyntheticIndex() {
    return syntheticMethods++;
  }

  /** Says that an instrumentation changed the class (else the original bytes are kept). */
  public void changed() {
    changed = true;
  }

  boolean isChanged() {
    return changed;
  }
}
