// The in-flight shares moved to libs/messaging: proxy-service shares its calls between tenants the same way.
export { InFlightBudget, InFlightShares } from '@coffer/messaging';
