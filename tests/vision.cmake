# Vision encoder (engine/model/vision/): image decoding, kimivl preprocessing, MoonViT + projector
# against the llama.cpp golden, and the kimivl mmproj generator (tools/models/kimivl_mmproj.*).
folio_add_test(test_vision
    SOURCES engine/model/vision/test_vision.cpp
    LIBS folio_tools folio_engine_internal
    LABELS engine)
