// Which full contract (schemas included) a route head belongs to: types only, beside route-heads.ts rather
// than in it, so the heads import none of the contracts that are built from them.
import type { AccountRoutes } from './account-routes.ts';
import type { AsyncRenderRoutes, CompatRoutes, McpRoutes, RenderRoutes, SystemRoutes } from './gateway-routes.ts';
import type { RouteGroupName, RouteHead } from './route-heads.ts';
import type { TemplateRoutes } from './template-routes.ts';

/** Every group's full contracts by name (types only: what `ContractOf` looks a head up in). */
export interface RouteGroups extends Record<RouteGroupName, object> {
  account: typeof AccountRoutes;
  template: typeof TemplateRoutes;
  render: typeof RenderRoutes;
  asyncRender: typeof AsyncRenderRoutes;
  system: typeof SystemRoutes;
  mcp: typeof McpRoutes;
  compat: typeof CompatRoutes;
}

/** The full contract (schemas included) a head belongs to. */
export type ContractOf<H extends RouteHead> = H extends { group: infer G extends keyof RouteGroups; name: infer N }
  ? N extends keyof RouteGroups[G]
    ? RouteGroups[G][N]
    : never
  : never;
