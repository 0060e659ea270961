import * as Tabs from '@radix-ui/react-tabs';
import * as Accordion from '@radix-ui/react-accordion';
import { useState } from 'react';
import { faqs, glossary } from './content';

/** HelpContent: tab 0 FAQs, tab 1 Glossary. */
export function HelpContent({ initialTab = 0, headingLevel = 2 }: { initialTab?: 0 | 1; headingLevel?: 1 | 2 | 3 }) {
  const [tab, setTab] = useState(String(initialTab));
  const H = headingLevel === 1 ? 'h1' : headingLevel === 2 ? 'h2' : 'h3';
  const Item = headingLevel === 3 ? 'h4' : 'h3';
  return (
    <>
      <H>{tab === '0' ? 'FAQs' : 'Glossary'}</H>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs-list" aria-label="Help topics">
          <Tabs.Trigger className="tab" value="0">
            FAQs
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="1">
            Glossary
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="0">
          <Accordion.Root type="multiple">
            {faqs.map((f, i) => (
              <Accordion.Item key={f.title} value={`faq-${i}`} className="acc-item">
                <Accordion.Header asChild>
                  <Item style={{ margin: 0, fontSize: 'inherit' }}>
                    <Accordion.Trigger className="acc-trigger">{f.title}</Accordion.Trigger>
                  </Item>
                </Accordion.Header>
                <Accordion.Content className="acc-content">
                  <ul>
                    {f.facts.map((fact) => (
                      <li key={fact}>{fact}</li>
                    ))}
                  </ul>
                  {f.subFacts?.map((s) => (
                    <p key={s.title}>
                      <strong>{s.title}:</strong> {s.description}
                    </p>
                  ))}
                </Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </Tabs.Content>
        <Tabs.Content value="1">
          <Accordion.Root type="multiple">
            {glossary.map((g, i) => (
              <Accordion.Item key={g.term} value={`g-${i}`} className="acc-item">
                <Accordion.Header asChild>
                  <Item style={{ margin: 0, fontSize: 'inherit' }}>
                    <Accordion.Trigger className="acc-trigger">{g.term}</Accordion.Trigger>
                  </Item>
                </Accordion.Header>
                <Accordion.Content className="acc-content">
                  <p>{g.definition}</p>
                  {g.definition1 ? <p>{g.definition1}</p> : null}
                </Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
