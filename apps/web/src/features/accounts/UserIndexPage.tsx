import { ROUTES } from '@marquee/protocol';
import { Navigate } from 'react-router';
import { useCan } from '../../session/useCan';
import NotOnlinePage from '../common/NotOnlinePage';

/** /user has no page of its own: it opens the first user page the caller may open. */
export default function UserIndexPage() {
  const can = useCan();
  const first = ROUTES.find((r) => r.menu && r.online && r.path.startsWith('/user/') && can(r.permission));
  return first ? <Navigate to={first.path} replace /> : <NotOnlinePage />;
}
