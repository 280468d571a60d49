//! A TCP proxy on 127.0.0.1 that a fault test can cut: while cut, every
//! open connection is dropped and the port refuses new ones, as with a
//! server that is down; restored, it listens and forwards again.

use std::net::SocketAddr;

use tokio::{
    net::{TcpListener, TcpStream},
    sync::watch,
    task::JoinHandle,
};

/// A running proxy; it stops when dropped.
#[derive(Debug)]
pub struct Proxy {
    pub addr: SocketAddr,
    cut: watch::Sender<bool>,
    accepting: JoinHandle<()>,
}

impl Proxy {
    /// Forwards a free port of 127.0.0.1 to `target`.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("its address");
        let (cut, watching) = watch::channel(false);
        let accepting = tokio::spawn(serve(listener, addr, target, watching));
        Proxy { addr, cut, accepting }
    }

    /// Drops every connection, and every new one until [`Proxy::restore`].
    pub fn cut(&self) {
        self.cut.send_replace(true);
    }

    pub fn restore(&self) {
        self.cut.send_replace(false);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
        self.cut.send_replace(true);
    }
}

/// Accepts and forwards until cut, then closes the port until restored.
async fn serve(mut listener: TcpListener, addr: SocketAddr, target: SocketAddr, mut cut: watch::Receiver<bool>) {
    loop {
        let forwards = cut.clone();
        let cutting = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((client, _)) => {
                    tokio::spawn(forward(client, target, forwards));
                    false
                }
                Err(_) => return,
            },
            closed = cut.wait_for(|cut| *cut) => match closed {
                Ok(_) => true,
                Err(_) => return,
            },
        };
        if cutting {
            drop(listener);
            if cut.wait_for(|cut| !*cut).await.is_err() {
                return;
            }
            listener = TcpListener::bind(addr).await.expect("the proxy's port again");
        }
    }
}

async fn forward(mut client: TcpStream, target: SocketAddr, mut cut: watch::Receiver<bool>) {
    let Ok(mut server) = TcpStream::connect(target).await else { return };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = cut.wait_for(|cut| *cut) => {}
    }
}
