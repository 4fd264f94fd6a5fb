# Sourced by the wrk benchmarks: the reference nginx, one worker, keep-alive without limit, no log.
#   start_nginx WORK LOCATIONS [LISTEN] [HTTP]   writes WORK/nginx.conf with the given location blocks
#                                (and server directives), starts nginx on a free loopback port (with
#                                LISTEN's options, such as "ssl"; HTTP's directives, such as an upstream
#                                block, go in the http block) and sets $nport; WORK/nginx.pid stops it.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_nginx() {
    local work=$1 locations=$2 listen=${3:-} http=${4:-}
    nport=$(free_port)
    cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    sendfile on;
    default_type application/octet-stream;
    $http
    server {
        listen 127.0.0.1:$nport $listen;
        $locations
    }
}
CONF
    nginx -c "$work/nginx.conf" -p "$work"
}
