# smtp_sink.py — a real SMTP server on loopback for tests/server/mail.mjs
# (Debian's python3-aiosmtpd): every message it accepts is written whole to
# DIR/NNNNNN.eml (by a rename: a file that exists is complete), its envelope's
# recipients first as an "X-Envelope-To:" line.
#   /usr/bin/python3 tests/server/smtp_sink.py PORT DIR
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.count = len([f for f in os.listdir(folder) if f.endswith(".eml")])
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            name = os.path.join(self.folder, "%06d.eml" % self.count)
        data = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode("utf-8")
        with open(name + ".tmp", "wb") as f:
            f.write(("X-Envelope-To: %s\r\n" % ",".join(envelope.rcpt_tos)).encode("ascii"))
            f.write(data)
        os.rename(name + ".tmp", name)
        return "250 OK"


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    signal.signal(signal.SIGINT, lambda *a: done.set())
    done.wait()
    controller.stop()


main()
