#!/usr/bin/env python3
"""ftps-sessions: complete FTPS sessions per second with Python's ftplib.FTP_TLS.

Each session: connect, AUTH TLS, USER/PASS, PBSZ 0 and PROT P, TYPE I, PASV, RETR FILE over TLS
(bytes counted), QUIT. Usage: ftps-sessions.py HOST PORT FILE SECONDS EXPECT_BYTES
Prints sessions/s. Bounded by SECONDS. The server's certificate is not verified (the benchmark
measures the servers, not the client's checks).
"""
import ftplib, ssl, sys, time

host, port, name, secs, expect = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
count, errors, end = 0, 0, time.monotonic() + secs
while time.monotonic() < end:
    try:
        f = ftplib.FTP_TLS(context=context)
        f.connect(host, port, timeout=5)
        f.login("anonymous", "x")
        f.prot_p()
        got = bytearray()
        f.retrbinary("RETR " + name, got.extend)
        try:
            f.quit()
        except Exception:
            f.close()
        if len(got) == expect:
            count += 1
        else:
            errors += 1
    except Exception as e:
        errors += 1
        if errors < 3:
            print("error:", repr(e), file=sys.stderr)
print(f"sessions={count} errors={errors} sessions_per_s={count/secs:.0f}")
