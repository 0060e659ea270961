import { useState } from 'react';
import { Page } from '@/components/Page';
import { useWording } from '@/lib/wording';

const SLIDES = [
  {
    title: 'See your options in minutes',
    body: 'Check what financing you may get for your dental treatment. Checking does not affect your credit score.',
  },
  { title: 'Pick a monthly payment that works', body: 'Compare plans side by side, with the monthly payment, total cost and APR shown up front.' },
  {
    title: 'Sign and you’re done',
    body: 'Review the terms, sign on the screen, and you’re done. In the office, hand the device back when you finish.',
  },
];

/** IdlePage: the home / idle screen with its 3-slide intro carousel. Kept small: it is the first route. */
export function IdlePage() {
  const [i, setI] = useState(0);
  const { practice } = useWording();
  const slide = SLIDES[i]!;
  return (
    <div className="card carousel">
      <Page title="Welcome to Chairside">
        <p className="lead" style={{ margin: '0 auto 1em' }}>
          To start, scan the QR code {practice} gives you, or open the link they sent you.
        </p>
      </Page>
      <section aria-roledescription="carousel" aria-label="How it works" style={{ minHeight: 170 }}>
        <div role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${SLIDES.length}`}>
          <h2>{slide.title}</h2>
          <p style={{ margin: '0 auto 1em' }}>{slide.body}</p>
        </div>
        <div className="carousel__dots">
          {SLIDES.map((s, n) => (
            <button
              key={s.title}
              type="button"
              aria-label={`Show slide ${n + 1}: ${s.title}`}
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
