# Drives `mockserver --admin` from Python with the standard library only (pytest-style: plain
# test functions, also runnable as `python3 test_admin.py`). MOCKSERVER names the binary.
import ftplib, io, json, os, subprocess, urllib.error, urllib.request

MOCKSERVER = os.environ.get("MOCKSERVER", ".build/debug/mockserver")

def start(*arguments):
    server = subprocess.Popen([MOCKSERVER, "--admin", *arguments], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[3].split(":")[1])  # mockserver listening on 127.0.0.1:PORT …
    admin = server.stdout.readline().split()[3]                      # mockserver admin on http://127.0.0.1:PORT/
    return server, port, admin

def call(admin, method, path, body=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    # The control API takes JSON as application/json only (a form type would be refused with 403).
    headers = {} if data is None else {"Content-Type": "application/json"}
    request = urllib.request.Request(admin + path.lstrip("/"), data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()

def test_ftp_script_under_control():
    server, port, admin = start()
    try:
        ftp = ftplib.FTP(); ftp.connect("127.0.0.1", port, timeout=20); ftp.login("user", "pass")
        ftp.storbinary("STOR report.csv", io.BytesIO(b"id,name\n1,Ada\n"))
        status, body = call(admin, "GET", "/wait?input=^STOR%20report&timeout=5")
        assert status == 200 and json.loads(body)["input"] == "STOR report.csv"
        assert call(admin, "GET", "/uploads/report.csv") == (200, b"id,name\n1,Ada\n")
        assert call(admin, "POST", "/set", {"name": "stor denied"})[0] == 200
        try:
            ftp.storbinary("STOR again.csv", io.BytesIO(b"x")); assert False, "STOR should be denied"
        except ftplib.error_perm as error:
            assert str(error).startswith("550")
        entries = json.loads(call(admin, "GET", "/transcript")[1])["entries"]
        assert any(entry["event"] == "uploaded" and entry["name"] == "report.csv" for entry in entries)
        assert call(admin, "GET", "/wait?input=^NEVER&timeout=0.2")[0] == 408
        assert call(admin, "POST", "/set", {"name": "no such set"})[0] == 400
        assert call(admin, "POST", "/reset")[0] == 200
        assert json.loads(call(admin, "GET", "/uploads")[1])["uploads"] == []
        ftp.close()
    finally:
        assert call(admin, "POST", "/shutdown")[0] == 200
        assert server.wait(timeout=20) == 0

def test_endpoints_added_and_reset():
    endpoints = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Responses", "endpoints.json")
    server, port, admin = start(endpoints)
    try:
        added = call(admin, "POST", "/endpoints", [{"api": "get /hello", "response": {"body": "hi"}}])
        assert added == (200, b'{"added":1}\n')
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/hello", timeout=20) as response:
            assert response.read() == b"hi"
        assert call(admin, "POST", "/endpoints", b"{not json")[0] == 400
        assert call(admin, "POST", "/reset")[0] == 200
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/hello", timeout=20); assert False, "reset should remove /hello"
        except urllib.error.HTTPError as error:
            assert error.code == 500
    finally:
        assert call(admin, "POST", "/shutdown")[0] == 200
        assert server.wait(timeout=20) == 0

if __name__ == "__main__":
    test_ftp_script_under_control()
    test_endpoints_added_and_reset()
    print("ok")
