/// A type that tells route classes apart.
protocol RouteTag {}
/// The end of a route number's spelling.
enum RouteTagEnd: RouteTag {}
/// A 0 bit of a route number.
enum RouteTagZero<Rest: RouteTag>: RouteTag {}
/// A 1 bit of a route number.
enum RouteTagOne<Rest: RouteTag>: RouteTag {}
