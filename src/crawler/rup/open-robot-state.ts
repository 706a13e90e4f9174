/**
 * Opens the robot's RUP state in the crawl store named as `heed --store` names it: `redis://…`
 * or `redis+cluster://…` (with `#prefix`, as the crawl store) or the path of an SQLite file.
 * Apart from the interface (robot-state.ts), so that it does not open an implementation: each
 * implementation imports it.
 */
import { DEFAULT_REDIS_PREFIX, isRedisSpec } from "../../store/open.js";
import { type RobotState, SqliteRobotState } from "./robot-state.js";

export async function openRobotState(spec: string): Promise<RobotState> {
  if (isRedisSpec(spec)) {
    // Loaded here: the Redis client stays out of memory when no Redis store is named.
    const { openRedisRobotState } = await import("./robot-state-redis.js");
    const hash = spec.indexOf("#");
    return openRedisRobotState({
      url: hash === -1 ? spec : spec.slice(0, hash),
      prefix: hash === -1 ? DEFAULT_REDIS_PREFIX : decodeURIComponent(spec.slice(hash + 1)),
    });
  }
  return SqliteRobotState.open(spec);
}
