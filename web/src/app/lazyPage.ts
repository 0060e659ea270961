import type { RouteObject } from 'react-router';
import { withJourneyMessages } from '@/lib/i18n';

export type Lazy = RouteObject['lazy'];

/**
 * page is a route's lazy screen: the export name of the module loader
 * answers. The screen's words load beside its code (lib/i18n.ts): the
 * form's with the start screen and the form, the journey's with any later
 * screen.
 */
export const page = (loader: () => Promise<Record<string, unknown>>, name: string, words = withJourneyMessages): Lazy =>
  (async () => {
    const m = await words(loader)();
    return { Component: m[name] as React.ComponentType };
  }) as Lazy;
