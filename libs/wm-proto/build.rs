//! Compiles `proto/wmeter/v1/*.proto` with protox (pure Rust, no system
//! protoc) and generates the Rust types with prost-build.

use std::path::{Path, PathBuf};
use std::{env, fs, io};

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?);
    let proto_root = manifest_dir.join("../../proto");
    let proto_dir = proto_root.join("wmeter/v1");
    println!("cargo:rerun-if-changed={}", proto_dir.display());

    let files = proto_files(&proto_dir)?;
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }

    let fds = protox::compile(&files, [&proto_root])?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(out_dir.join("wmeter_v1_descriptor.bin"), fds.encode_to_vec())?;

    prost_build::Config::new().compile_fds(fds)?;
    Ok(())
}

/// Every `.proto` file in `dir`, sorted so the build is reproducible.
fn proto_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "proto") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
