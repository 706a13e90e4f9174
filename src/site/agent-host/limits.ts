/** What one visiting agent, and all of them together, may cost the host. Each with its reason. */

/**
 * Running time of one agent, in ms of its thread's wall clock while it runs: an upper bound
 * on its CPU time (Node 20 has no per-thread CPU clock). Indexing 10,000 small pages takes
 * a few seconds; 30 s is ample and bounds a runaway loop.
 */
export const AGENT_TIME_LIMIT_MS = 30_000;
/**
 * After the time limit, how long the worker thread may take to stop before it is terminated:
 * the interrupt handler runs between instructions, freeing a full heap takes a while, and on a
 * loaded machine the thread may wait for a core. Only a hang guard: the agent's own limit is
 * what stops it.
 */
export const TERMINATE_GRACE_MS = 5_000;
/** How long a sandbox thread may take to start and load its interpreter (a busy machine is slow). */
export const SANDBOX_START_LIMIT_MS = 60_000;
/** QuickJS heap of one agent. The indexing agent keeps little; 64 MiB stops a memory bomb early. */
export const AGENT_MEMORY_BYTES = 64 * 1024 * 1024;
/**
 * QuickJS stack. Its frames live on the worker thread's native stack; this must stay well under
 * it (`WORKER_STACK_MB`), so that QuickJS reports the overflow and not the thread.
 */
export const AGENT_STACK_BYTES = 256 * 1024;
/** The worker thread's own V8 limits: its host code reads files and holds results. */
export const WORKER_HEAP_MB = 256;
export const WORKER_STACK_MB = 8;
/** Records and their JSON size (UTF-8 bytes) an agent may emit: the answer to a RETRACT must fit in a message. */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
export const MAX_RESULT_RECORDS = 100_000;
/** One file read by `heed.read`: pages are rarely over a few hundred KiB. */
export const MAX_READ_BYTES = 4 * 1024 * 1024;
/** Entries one `heed.list` returns; a directory of a 10,000-page site fits. */
export const MAX_LIST_ENTRIES = 100_000;
/** A path given to the capability API, in characters. */
export const MAX_PATH_LENGTH = 4096;
/** Agents running at once: one thread each; the machine's cores bound useful parallelism. */
export const MAX_RUNNING_AGENTS = 2;
/** Agents held at once (running, waiting to run, or finished and not yet retracted). */
export const MAX_HELD_AGENTS = 64;
/** Agents one sender (remote address) may hold at once; a flood from one sender stops here. */
export const MAX_AGENTS_PER_SENDER = 8;
/**
 * Agents one network (an IPv4 /24, an IPv6 /64) may hold at once: a sender rotating its
 * addresses stays within its network, so eight of them cannot fill the host.
 */
export const MAX_AGENTS_PER_NETWORK = 16;
/**
 * A finished agent not retracted within this time is dropped. A robot retracts its agent as
 * soon as it ends (or takes its results by MESSAGE); two minutes is ample for that.
 */
export const AGENT_EXPIRY_MS = 2 * 60_000;
/** Bytes of results all ended agents may keep at once; beyond this the oldest are dropped. */
export const MAX_HELD_RESULT_BYTES = 128 * 1024 * 1024;
/**
 * Connections open at once, and how long one may take to send its request. Each may buffer
 * up to MAX_REQUEST_BODY_BYTES: 64 of them stay under 256 MiB.
 */
export const MAX_CONNECTIONS = 64;
/** Connections one remote address may have open at once. */
export const MAX_CONNECTIONS_PER_ADDRESS = 8;
/**
 * A request's body: a DISPATCH carries code (256 Ki characters) and state (1 Mi characters),
 * up to three UTF-8 bytes each, and a few short fields. 4 MiB holds that; nothing else heed
 * accepts is larger.
 */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
export const REQUEST_TIMEOUT_MS = 10_000;
/**
 * ATP is one request a connection: after its answer (or the request deadline's) the host
 * closes its side, and a peer that keeps its side open this long after is cut off, so that
 * answered sockets cannot be held to fill the connection limit.
 */
export const ANSWERED_LINGER_MS = 2_000;
/** Messages one agent may be sent by MESSAGE: its queue must not grow without end. */
export const MAX_MESSAGES_PER_AGENT = 64;
/** One message's body: messages steer an agent; data travels in its state. */
export const MAX_MESSAGE_BYTES = 64 * 1024;
