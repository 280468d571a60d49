//! The types in `src/generated` are what prost-build makes of `proto/wmeter/v1`.
//!
//! They are kept in the repository so that no build compiles protox and
//! prost-build (docs/performance.md §7). `make proto` writes them anew: it
//! runs this test with `WM_PROTO_WRITE=1`.

use std::path::{Path, PathBuf};
use std::{env, fs};

use prost_types::FileDescriptorSet;

/// The file prost-build writes for the `wmeter.v1` package.
const GENERATED: &str = "wmeter.v1.rs";

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `wmeter.v1` file (with its imports), compiled from the `.proto` sources.
pub fn descriptor_set() -> FileDescriptorSet {
    let root = crate_dir().join("../../proto");
    let mut files: Vec<PathBuf> = fs::read_dir(root.join("wmeter/v1"))
        .expect("proto/wmeter/v1 is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "proto"))
        .collect();
    files.sort();
    protox::compile(&files, [&root]).expect("the .proto files compile")
}

#[test]
fn the_kept_types_are_what_the_proto_files_generate() {
    let out = tempfile::tempdir().expect("a temporary directory");
    prost_build::Config::new().out_dir(out.path()).compile_fds(descriptor_set()).expect("prost-build generates");
    let generated = fs::read_to_string(out.path().join(GENERATED)).expect("prost-build wrote the package");
    let kept_path = crate_dir().join("src/generated").join(GENERATED);
    if env::var_os("WM_PROTO_WRITE").is_some() {
        fs::write(&kept_path, &generated).expect("src/generated is writable");
        return;
    }
    let kept = fs::read_to_string(&kept_path).unwrap_or_default();
    assert!(
        kept == generated,
        "src/generated/{GENERATED} is not what proto/wmeter/v1 generates: run `make proto` and commit the result"
    );
}
