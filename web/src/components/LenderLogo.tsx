import { useFlow } from '@/stores/flow';
import { useT } from '@/lib/i18n';

/**
 * LenderLogo shows a lender's logo with fixed dimensions, so nothing jumps
 * while it loads. The logo and the name come from the server's catalogue
 * (our own simple marks in /logos/); until it is loaded, a generic mark.
 */
export function LenderLogo({ providerKey, logo, className }: { providerKey: string; logo?: string; className?: string }) {
  const cfg = useFlow((s) => s.lenders[providerKey]);
  const src = logo || cfg?.logo || '/logos/generic.svg';
  const t = useT();
  const alt = cfg?.name ? t('common.lender.logo', { name: cfg.name }) : t('common.lender.unknownLogo');
  return <img className={className ?? 'lender-logo'} src={src} alt={alt} width={140} height={40} decoding="async" />;
}
