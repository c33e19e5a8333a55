# Sourced by benchmarks/thirdparty.sh and benchmarks/thirdparty-attach.sh, with root (the project)
# and tp (benchmarks/thirdparty) set: builds Weft if its jars are missing, fetches the third-party
# jars, compiles the drivers, and sets cp, the drivers' class path.
if [[ ! -f "$root/agent/target/weft-agent.jar" || ! -f "$root/analyzer-cli/cli/target/weft.jar" ]]; then
  echo "building Weft (mvn -B -q package -DskipTests)..." >&2
  (cd "$root" && mvn -B -q package -DskipTests)
fi
echo "fetching the third-party jars (mvn dependency:copy-dependencies)..." >&2
(cd "$tp" && mvn -B -q dependency:copy-dependencies -DoutputDirectory=target/lib)
rm -rf "$tp/target/classes" && mkdir -p "$tp/target/classes"
javac -d "$tp/target/classes" -cp "$tp/target/lib/*" "$tp"/src/main/java/thirdparty/*.java
cp="$tp/target/classes:$tp/target/lib/*"
