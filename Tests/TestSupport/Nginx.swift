import Foundation

/// A real nginx serving a folder on loopback for the life of the object, on a port the system
/// picks. `extraServerConfiguration` goes inside its
/// `server { }` block (locations, headers, certificates), `listenOptions` after its address (`ssl`).
public final class Nginx {
    public let port: UInt16
    public let root: URL
    private let directory: URL
    private let process: ChildProcess

    /// Whether nginx is installed.
    public static var isAvailable: Bool { executable != nil }

    private static var executable: String? {
        Tools.path(of: "nginx") ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil)
    }

    /// Starts nginx; connections made once this returns are served.
    public init(files: [String: Data], extraServerConfiguration: String = "", listenOptions: String = "") throws {
        guard let executable = Self.executable else { throw NginxError("nginx is not installed") }
        directory = try Tools.temporaryDirectory()
        root = directory.appendingPathComponent("www", isDirectory: true)
        for (path, data) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A listening socket made first and handed to nginx as an inherited one (its NGINX
        // variable, as in a binary upgrade): the port is known and taken before nginx runs, and a
        // client's connection waits in the backlog until nginx accepts it, so nothing waits for nginx.
        let launcher = """
            import os, socket, sys
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(1024)
            listener.set_inheritable(True)
            port = listener.getsockname()[1]
            conf = sys.argv[2]
            with open(conf) as f: text = f.read().replace("@PORT@", str(port))
            with open(conf, "w") as f: f.write(text)
            print(port, flush=True)
            os.environ["NGINX"] = "%d;" % listener.fileno()
            os.execv(sys.argv[1], [sys.argv[1], "-e", sys.argv[3], "-c", conf, "-p", sys.argv[4]])
            """
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log;
            events { worker_connections 4096; }
            http {
              access_log off;
              client_body_temp_path \(directory.path)/body;
              proxy_temp_path \(directory.path)/proxy;
              fastcgi_temp_path \(directory.path)/fastcgi;
              uwsgi_temp_path \(directory.path)/uwsgi;
              scgi_temp_path \(directory.path)/scgi;
              types { text/html html; text/plain txt; application/json json; }
              server {
                listen 127.0.0.1:@PORT@ \(listenOptions);
                root \(root.path);
                \(extraServerConfiguration)
              }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        process = try ChildProcess(Tools.path(of: "python3") ?? "/usr/bin/python3",
                                   ["-c", launcher, executable, file.path, "\(directory.path)/error.log", directory.path], discardingErrors: true)
        let line = PipeReading.readLine(process.output)
        guard let port = UInt16(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.send(SIGKILL)
            throw NginxError("nginx's launcher printed no port: \"\(line)\"")
        }
        self.port = port
    }

    /// Stops nginx (also done when the object goes away).
    public func stop() {
        process.send(SIGTERM)
        process.wait()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Why nginx could not be used.
public struct NginxError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
