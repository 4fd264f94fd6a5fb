import Foundation

/// The `python3` the tests start: the interpreter itself rather than a version manager's shim.
///
/// On this machine and CI's, the `python3` first on `PATH` is pyenv's shim: a chain of bash scripts
/// (`pyenv`, `pyenv-exec`, `pyenv-version-name`, `pyenv-hooks`, `readlink`, `basename`…) run before
/// every interpreter start. Under `perf record -a` over a whole parallel run of the suite, those
/// processes took about a tenth of the suite's CPU (bash alone 5.2% of all samples, beside python3's
/// own 11.8%), for the hundreds of python3 starts the client tests make. The interpreter the shim
/// chooses is asked once (`sys.executable`) and started directly from then on: the same
/// interpreter, its packages and its version.
public enum PythonInterpreter {
    /// The interpreter's path, or `nil` when no `python3` is on `PATH`. Where the one on `PATH` is
    /// the interpreter already, or cannot tell, it is that path.
    public static let path: String? = {
        guard let onPath = Tools.onPath("python3") else { return nil }
        guard let child = try? ChildProcess(onPath, ["-c", "import sys; print(sys.executable)"], discardingErrors: true) else {
            return onPath
        }
        let answer = PipeReading.readLine(child.output)
        guard child.wait() == 0, answer.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: answer) else { return onPath }
        return answer
    }()
}
