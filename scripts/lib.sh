# Shared by scripts/test, scripts/sluice and scripts/perf: find a JDK 21+ and the JVM flags.
# Sourced, not run. Sets SLUICE_ROOT, JAVA_HOME, JAVA, and the functions sluice_jvm_flags and sluice_build_lock.

SLUICE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The feature release of the JDK at $1 (21, 25, ...), or nothing when it is not a JDK.
sluice_jdk_release() {
    local home="$1" v=""
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
    if [ -f "$home/release" ]; then
        v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")
    fi
    if [ -z "$v" ]; then
        v=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
    fi
    v="${v#1.}"
    echo "${v%%[.+-]*}"
}

sluice_find_jdk() {
    local candidate rel best="" best_rel=0
    if [ -n "${JAVA_HOME:-}" ]; then
        rel=$(sluice_jdk_release "$JAVA_HOME")
        if [ -n "$rel" ] && [ "$rel" -ge 21 ] 2>/dev/null; then
            echo "$JAVA_HOME"
            return 0
        fi
    fi
    for candidate in /usr/lib/jvm/* /usr/local/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /opt/*jdk* \
        "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
        [ -d "$candidate" ] || continue
        rel=$(sluice_jdk_release "$candidate")
        [ -n "$rel" ] || continue
        if [ "$rel" -ge 21 ] 2>/dev/null && [ "$rel" -gt "$best_rel" ]; then
            best="$candidate"
            best_rel="$rel"
        fi
    done
    [ -n "$best" ] && echo "$best"
}

JAVA_HOME="$(sluice_find_jdk)"
if [ -z "$JAVA_HOME" ]; then
    echo "sluice: no JDK 21 or newer found (looked at JAVA_HOME and /usr/lib/jvm, /opt, ~/.sdkman); install one, e.g. apt-get install openjdk-21-jdk" >&2
    exit 1
fi
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
SLUICE_JDK_RELEASE="$(sluice_jdk_release "$JAVA_HOME")"
if [ "$SLUICE_JDK_RELEASE" -ge 24 ]; then
    # Maven's own Guava warns about Unsafe on 24+; only the JVM that runs Maven gets this.
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi

# Prints the JVM flags from scripts/jvm.properties, one per line, for this JDK.
sluice_jvm_flags() {
    local keys="sluice.jvm.args"
    [ "$SLUICE_JDK_RELEASE" -ge 24 ] && keys="$keys sluice.jvm.args.jdk24"
    local key
    for key in $keys; do
        awk -v key="$key" '
            /^[[:space:]]*#/ { next }
            !inside && index($0, key "=") == 1 { inside = 1; line = substr($0, length(key) + 2) }
            inside && line == "" { line = $0 }
            inside {
                more = sub(/\\[[:space:]]*$/, "", line)
                print line
                line = ""
                if (!more) exit
            }' "$SLUICE_ROOT/scripts/jvm.properties" | tr ' ' '\n' | sed '/^$/d'
    done
}

# Takes this machine's lock on sluice's artifacts in the local Maven repository and holds it until the calling script
# exits. The checks that install sluice-core there and build an example against it take it, so that two checkouts'
# scripts/test at once do not install over each other while the other's example reads the half-written files.
sluice_lock_local_repository() {
    local dir="${HOME}/.m2"
    mkdir -p "$dir"
    exec 9>"$dir/sluice-install.lock"
    flock 9
}

# The lock file that every build into the checkout's perf/target holds while it runs (scripts/sluice, scripts/perf,
# scripts/soak): two builds compiling into one target folder at once break each other.
sluice_build_lock() {
    mkdir -p "$SLUICE_ROOT/perf/target"
    echo "$SLUICE_ROOT/perf/target/.sluice-build.lock"
}

# For a script whose first argument is a folder it must have: with none (or an empty one), prints "usage: $1" and
# exits 2. Call it as: sluice_need_out_dir "perf/x.sh OUT_DIR [...]" "$@".
sluice_need_out_dir() {
    if [ $# -lt 2 ] || [ -z "$2" ]; then
        echo "usage: $1" >&2
        exit 2
    fi
}
