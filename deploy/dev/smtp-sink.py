"""An SMTP server for the tests: aiosmtpd on 127.0.0.1, STARTTLS required,
each message written to OUTDIR as N.eml, with an X-Sink-TLS header saying
whether the session was encrypted. Prints "ready" once it listens; stops on
SIGTERM.

    smtp-sink.py PORT CERT KEY OUTDIR
"""

import pathlib
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, outdir):
        self.outdir = pathlib.Path(outdir)
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        tls = "yes" if session.ssl else "no"
        head = f"X-Sink-TLS: {tls}\r\nX-Sink-To: {','.join(envelope.rcpt_tos)}\r\n".encode()
        target = self.outdir / f"{self.count}.eml"
        partial = target.with_suffix(".part")
        partial.write_bytes(head + envelope.content)
        partial.rename(target)
        return "250 Message accepted for delivery"


def main():
    port, cert, key, outdir = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    controller = Controller(
        Sink(outdir), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True
    )
    controller.start()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
