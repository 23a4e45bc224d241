/**
 * Real routing daemons as lab routers: FRR (zebra + bgpd + bfdd), BIRD 2 and GoBGP, each started in the
 * foreground inside a lab namespace (so NetnsLab.destroy() ends them by PID), each with its own work
 * dir, all behind one BgpRouter interface with normalised views of routes, neighbors and BFD sessions.
 * FRR and BIRD install what they select in the namespace's kernel FIB (main table); GoBGP never does.
 * kernelRoutes() reads that FIB, whoever filled it.
 */
export { watchBfdStability, type BfdStability } from './bfd-stability.ts';
export { startBird, type BirdRouter } from './bird.ts';
export {
  SutCommandError,
  SutOutputError,
  SutSpecError,
  SutStartError,
  SutTimeoutError,
  SutUnsupportedError,
} from './errors.ts';
export { startFrr, type FrrRouter } from './frr.ts';
export { startGobgp, type GobgpRouter } from './gobgp.ts';
export { kernelRoutes, type KernelRoute } from './kernel-routes.ts';
export type {
  AddressFamily,
  BfdAuthentication,
  BfdDiagnostic,
  BfdOptions,
  BfdSessionView,
  BfdState,
  BfdTimers,
  BgpNeighborSpec,
  BgpRouter,
  BgpRouterSpec,
  BgpState,
  DaemonSignal,
  NeighborView,
  OriginAttributes,
  Origination,
  RouteView,
  StartOptions,
} from './router.ts';
export { waitFor, type WaitOptions } from './wait.ts';
