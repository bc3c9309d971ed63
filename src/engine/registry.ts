import type { EntitySchema } from '@common/engine/types';
import type { ResourceProps } from '@refinedev/core';
import { createContext, useContext } from 'react';
import { buildResourceDef, normaliseComponent, type ResourceDef, type ResourceOverride, toRefineResource } from './resource';

/**
 * How the engine finds the resource definitions of other schemas (a relation's target, x-children, the resource of a
 * page): the app hands it a registry through ResourceRegistryContext (src/resources/ builds the console's), so the
 * engine never imports the app's list of schemas and overrides — which import the engine's pages in turn.
 */
export interface ResourceRegistry {
  get(name: string): ResourceDef | undefined;
  /** The resource a server menu component string opens ('system/config/index', '/system/config/index.vue'). */
  forComponent(component: string): ResourceDef | undefined;
  all(): ResourceDef[];
  /** What <Refine resources> gets. */
  refineResources(): ResourceProps[];
  /**
   * Adds the schemas it does not have yet (a schema file the server has and this build did not: issue 26); the
   * ones it has stay as built. Answers whether anything was added.
   */
  add(schemas: EntitySchema[]): boolean;
}

/** A registry of these schemas, each with its override (by $id) if any. */
export function createResourceRegistry(schemas: EntitySchema[], overrides: Record<string, ResourceOverride> = {}): ResourceRegistry {
  const defs = new Map<string, ResourceDef>();
  const registry: ResourceRegistry = {
    get: (name) => defs.get(name),
    forComponent(component) {
      const key = normaliseComponent(component);
      for (const d of defs.values()) if (d.components.includes(key)) return d;
      return undefined;
    },
    all: () => [...defs.values()],
    refineResources: () => [...defs.values()].map(toRefineResource),
    add(more) {
      let added = false;
      for (const s of more) {
        if (defs.has(s.$id)) continue;
        defs.set(s.$id, buildResourceDef(s, overrides[s.$id]));
        added = true;
      }
      return added;
    },
  };
  registry.add(schemas);
  return registry;
}

/** Outside a provider the engine knows no other resource (a relation shows no choices, x-children no rows). */
export const ResourceRegistryContext = createContext<ResourceRegistry>(createResourceRegistry([]));

export function useResourceRegistry(): ResourceRegistry {
  return useContext(ResourceRegistryContext);
}

/** The definition of one resource by name ($id), from the registry the app provides. */
export function useResourceDef(name: string | undefined): ResourceDef | undefined {
  const registry = useContext(ResourceRegistryContext);
  return name ? registry.get(name) : undefined;
}
