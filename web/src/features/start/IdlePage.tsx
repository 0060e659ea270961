import { useState } from 'react';
import { Page } from '@/components/Page';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';

/** The intro slides, by their message names (start.idle.slides in the catalogues). */
const SLIDES = ['options', 'plans', 'sign'] as const;

/** IdlePage: the home / idle screen with its 3-slide intro carousel. Kept small: it is the first route. */
export function IdlePage() {
  const [i, setI] = useState(0);
  const { practice } = useWording();
  const t = useT();
  const slide = SLIDES[i]!;
  return (
    <div className="card carousel">
      <Page title={t('start.idle.title')}>
        <p className="lead" style={{ margin: '0 auto 1em' }}>
          {t('start.idle.lead', { practice })}
        </p>
      </Page>
      <section aria-roledescription="carousel" aria-label={t('start.idle.howItWorks')} style={{ minHeight: 170 }}>
        <div role="group" aria-roledescription="slide" aria-label={t('start.idle.slideOf', { n: i + 1, total: SLIDES.length })}>
          <h2>{t(`start.idle.slides.${slide}.title`)}</h2>
          <p style={{ margin: '0 auto 1em' }}>{t(`start.idle.slides.${slide}.body`)}</p>
        </div>
        <div className="carousel__dots">
          {SLIDES.map((s, n) => (
            <button
              key={s}
              type="button"
              aria-label={t('start.idle.showSlide', { n: n + 1, title: t(`start.idle.slides.${s}.title`) })}
              aria-current={n === i ? 'true' : undefined}
              onClick={() => setI(n)}
            >
              <span />
            </button>
          ))}
        </div>
      </section>
    </div>
  );
}
