import { useFlow } from '@/stores/flow';

/** providerId of a key: "synchrony_standard:role=primary" → "synchrony". */
export function providerIdOf(providerKey: string): string {
  return providerKey.split(':')[0]!.split('_')[0]!;
}

const KNOWN = new Set(['ads', 'aff', 'covered', 'fortiva', 'genesis', 'hfd', 'lendingclub', 'proceed', 'snap', 'synchrony', 'vive']);

/**
 * LenderLogo shows a lender's logo with fixed dimensions, so nothing jumps
 * while it loads. Logos are our own simple marks in /logos/.
 */
export function LenderLogo({ providerKey, logo, className }: { providerKey: string; logo?: string; className?: string }) {
  const cfg = useFlow((s) => s.providers[providerKey]);
  const id = providerIdOf(providerKey);
  const src = logo || cfg?.logo || (KNOWN.has(id) ? `/logos/${id}.svg` : '/logos/generic.svg');
  const name = cfg?.name ?? id;
  return <img className={className ?? 'lender-logo'} src={src} alt={`${name} logo`} width={140} height={40} decoding="async" />;
}
