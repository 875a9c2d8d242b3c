"""The REST API: thin routers over ``adapters.service.Stakes``."""
