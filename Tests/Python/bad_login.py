import ftplib, os, subprocess
MOCKSERVER = os.environ.get("MOCKSERVER", ".build/debug/mockserver")   # after `swift build`
server = subprocess.Popen([MOCKSERVER, "--set", "bad login"], stdout=subprocess.PIPE, text=True)
line = server.stdout.readline()        # mockserver listening on 127.0.0.1:PORT (data port N)
port = int(line.split()[3].rsplit(":", 1)[1])
try:
    ftp = ftplib.FTP()
    assert ftp.connect("127.0.0.1", port, timeout=20).startswith("220")
    try:
        ftp.login("user", "secret")    # the code under test meets the refusal
        raise AssertionError("the login was accepted")
    except ftplib.error_perm as refusal:
        assert str(refusal).startswith("530"), refusal
finally:
    server.terminate()                 # SIGTERM: exits 0
    assert server.wait(timeout=20) == 0
