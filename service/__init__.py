"""The HTTP service (Flask application factory: ``service.app.create_app``)."""
