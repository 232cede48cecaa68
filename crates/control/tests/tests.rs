//! The control crate's one integration test binary: the service through its
//! router and real clients, with the simulator as the backend.

// Shared helpers: a control core on a temporary state directory.
mod util;

// The control API through its router and a real client.
mod control;

// The /mcp endpoint over streamable HTTP on loopback.
mod mcp;

// Issue 59: the state directory under stress: FIFOs, sockets, folders and links where state
// files belong are strays, never followed out; a file written in place is waited for.
mod state_stress;
