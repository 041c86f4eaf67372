"""HTTP routers of the web app (thin handlers)."""
