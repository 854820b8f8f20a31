import AlarmBadge from './header/AlarmBadge';
import Greeting from './header/Greeting';
import NoticeBell from './header/NoticeBell';
import StationLetters from './header/StationLetters';
import UserMenu from './header/UserMenu';
import TabBar from './TabBar';

/**
 * The 90 px header (spec section 2 "Layouts" and "Header"): greeting, station-letter banner,
 * notice bell and user dropdown on top, the page-tabs strip below.
 */
export default function Header() {
  return (
    <header className="mq-header">
      <div className="mq-header-bar">
        <Greeting />
        <div className="mq-header-middle">
          <StationLetters />
        </div>
        <div className="mq-header-actions">
          <AlarmBadge />
          <NoticeBell />
          <span className="mq-header-divider" />
          <UserMenu />
        </div>
      </div>
      <TabBar />
    </header>
  );
}
