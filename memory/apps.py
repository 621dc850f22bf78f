from django.apps import AppConfig
from django.core.signals import request_finished, request_started


class MemoryConfig(AppConfig):
    name = "memory"

    def ready(self) -> None:
        # Once the registry is ready; the tasks too, since they are sent by name.
        from llm import offline as offline_models
        from memory.engine import tasks  # noqa: F401
        from memory.offline import extractor
        from memory.queueing import after_response

        request_started.connect(after_response.start, dispatch_uid="memory.after_response")
        request_finished.connect(after_response.flush, dispatch_uid="memory.after_response")
        offline_models.register(extractor.MODEL_NAME, extractor.answer)
