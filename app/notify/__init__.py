"""Notifications (issue 31; docs/architecture.md "Notifications"): a seat's Web Push and
Apprise targets, the room's webhook, the durable outbox and its one sender."""
