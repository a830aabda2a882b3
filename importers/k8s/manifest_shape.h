#pragma once
// The types of the Kubernetes object fields the importers read (metadata, spec, pod templates,
// containers and their resources, node selectors, tolerations, List items, node status),
// checked before any importer reads them, so a manifest of the wrong shape is one located error
// ("document 1, /spec/template/spec/containers/0/resources: expected an object, found a list")
// rather than a failure inside the reader. Only documents with a "kind" are Kubernetes
// objects; the device plugin's and mig-parted's own configs, and component configurations
// (kind *Configuration), are checked by their readers.
#include "importers/k8s/yaml_documents.h"

namespace sharesim {

// Throws InputError at the first field of the wrong type, in document order.
void check_kubernetes_object_shape(const ManifestDocument& doc);

}  // namespace sharesim
