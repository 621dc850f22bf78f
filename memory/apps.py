from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"

    def ready(self) -> None:
        from django.core.signals import request_finished, request_started

        from memory.queueing import after_response

        request_started.connect(after_response.start, dispatch_uid="memory.after_response")
        request_finished.connect(after_response.flush, dispatch_uid="memory.after_response")
