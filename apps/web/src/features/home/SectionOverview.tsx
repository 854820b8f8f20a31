import { Card, Col, Empty, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';
import { PageLink, Statistics } from './HomePage';
import './home.css';

/**
 * A section's own page (/operate, /report: spec section 2's top-level routes): its quick
 * statistics (the figures whose pages are in the section, computed by the server in the
 * reader's scope, each linking to its page) and the section's pages the reader may open,
 * those of modules not online yet marked so. What a reader may not see is not shown.
 * `children`: what the section adds below (the help section's own feedback, for instance).
 */
export function SectionOverview({ root, name, children }: { root: string; name: string; children?: React.ReactNode }) {
  const { t } = useTranslation(['pages', 'menu']);
  const s = useSession();
  const section = s.navMenuList.find((item) => item.url === root);
  const pages = section?.children ?? [];
  return (
    <div className="mq-view mq-home mq-section" data-testid={`section-${name}`}>
      <section className="mq-home-hero">
        <div>
          <h3 className="mq-home-heading mq-home-greeting">{section ? t(section.code, { ns: 'menu' }) : ''}</h3>
          <p className="mq-home-secondary mq-home-welcome">{t(`section.${name}.intro`)}</p>
        </div>
      </section>
      <h4 className="mq-home-heading mq-home-sections-title">{t('section.figures')}</h4>
      <Statistics
        within={root}
        empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('section.noFigures')} />}
      />
      <h4 className="mq-home-heading mq-home-sections-title">{t('section.pages')}</h4>
      {pages.length > 0 ? (
        <Row gutter={[16, 16]} data-testid={`section-${name}-pages`}>
          {pages.map((page) => (
            <Col key={page.url} xs={12} md={8} xl={6}>
              <Card size="small" className="mq-home-figure">
                <PageLink item={page} />
              </Card>
            </Col>
          ))}
        </Row>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('section.noPages')} />
      )}
      {children}
    </div>
  );
}
