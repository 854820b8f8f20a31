import {
  formatFen,
  type OpenoohVenueType,
  type RtbAuctionState,
  type RtbBidOutcome,
  type RtbCampaignShownState,
} from '@marquee/protocol';
import { Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDictionary } from '../../components/pickers/useDictionary';

/**
 * The RTB pages' shared looks (issue 29): the tag of each campaign, auction and bid state,
 * a CPM as people read it, and the tabs of a page kept in the URL (`?tab=`).
 */

const CAMPAIGN_COLOR: Record<RtbCampaignShownState, string> = {
  scheduled: 'blue',
  active: 'success',
  paused: 'warning',
  exhausted: 'error',
  noAd: 'orange',
  ended: 'default',
};
const AUCTION_COLOR: Record<RtbAuctionState, string> = {
  noBid: 'default',
  won: 'processing',
  billed: 'success',
  unproven: 'warning',
};
const OUTCOME_COLOR: Record<RtbBidOutcome, string> = {
  won: 'success',
  lost: 'default',
  belowFloor: 'default',
  timeout: 'warning',
  invalid: 'error',
  noBid: 'default',
  error: 'error',
  creativePending: 'processing',
  creativeRefused: 'error',
};

export function CampaignStateTag({ state }: { state: RtbCampaignShownState }) {
  const { t } = useTranslation('rtb');
  return (
    <Tag color={CAMPAIGN_COLOR[state] ?? 'default'} data-testid={`rtb-campaign-state-${state}`}>
      {t(`campaign.states.${state}`)}
    </Tag>
  );
}

export function AuctionStateTag({ state }: { state: RtbAuctionState }) {
  const { t } = useTranslation('rtb');
  return (
    <Tag color={AUCTION_COLOR[state] ?? 'default'} data-testid={`rtb-auction-state-${state}`}>
      {t(`auction.states.${state}`)}
    </Tag>
  );
}

export function OutcomeTag({ outcome }: { outcome: RtbBidOutcome }) {
  const { t } = useTranslation('rtb');
  return (
    <Tag color={OUTCOME_COLOR[outcome] ?? 'default'} title={t(`outcome.${outcome}Hint`)}>
      {t(`outcome.${outcome}`)}
    </Tag>
  );
}

/** A CPM (fen per thousand impressions) as '¥12.50 / k'; '-' without one. */
export function useCpmText() {
  const { t, i18n } = useTranslation('rtb');
  return (fen: number | null | undefined) =>
    fen === null || fen === undefined ? '-' : t('cpm', { amount: formatFen(fen, i18n.language) });
}

/** An OpenOOH venue type's readable name in the current language (the operator's dictionary label, issue 31). */
export function useVenueLabel() {
  const { t } = useTranslation('rtb');
  const venues = useDictionary('venueType');
  return (venue: OpenoohVenueType) => venues.label(venue) || t(`venue.${venue}`);
}

/**
 * The tab of a page kept in the URL (`?tab=`): one of `tabs`, the first when absent or unknown.
 * Another tab leaves the current one's filters and page behind; the first tab has no `tab`.
 */
export function useUrlTab<K extends string>(tabs: readonly K[]): [K, (key: string) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') ?? '';
  const active = (tabs as readonly string[]).includes(requested) ? (requested as K) : tabs[0];
  const go = (key: string) => setParams(key === tabs[0] ? {} : { tab: key }, { replace: true });
  return [active, go];
}

/** The tab bar of a page whose tabs are each a whole list page (drawn in the page's header). */
export function PageTabs({
  items,
  active,
  onChange,
  testPrefix,
}: {
  items: readonly { key: string; label: string }[];
  active: string;
  onChange: (key: string) => void;
  testPrefix: string;
}) {
  return (
    <Tabs
      activeKey={active}
      onChange={onChange}
      style={{ marginBottom: 4 }}
      data-testid={`${testPrefix}-tabs`}
      items={items.map((i) => ({
        key: i.key,
        label: <span data-testid={`${testPrefix}-tab-${i.key}`}>{i.label}</span>,
      }))}
    />
  );
}
