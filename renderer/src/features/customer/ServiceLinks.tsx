import type { CustomerDetail } from '#contract/customers.ts';

const isWebAddress = (href: string) => /^https?:\/\//i.test(href);

/** "funding-sources" → "Funding sources". */
function titleOf(rel: string): string {
  const words = rel.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The links the service returned for the customer (funding sources, transfers…). Their resources
 * have no shape Vetted knows, so they are shown as links and nothing more.
 */
export function ServiceLinks({ links }: { links: CustomerDetail['links'] }) {
  return (
    <section aria-labelledby="customer-links" className="case-section">
      <h3 id="customer-links">On the service</h3>
      {links.length === 0 ? (
        <p className="hint">The service returned no links for this customer.</p>
      ) : (
        <ul className="service-links">
          {links.map((link) => (
            <li key={`${link.rel} ${link.href}`}>
              {isWebAddress(link.href) ? (
                <a href={link.href} target="_blank" rel="noreferrer">
                  {titleOf(link.rel)}
                </a>
              ) : (
                <span>
                  {titleOf(link.rel)}: {link.href}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
